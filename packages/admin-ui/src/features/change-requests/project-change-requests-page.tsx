import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  Badge,
  Card,
  EmptyState,
  ErrorNotice,
  formatDate,
  Loading,
  PageHeader,
} from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan } from '../auth/permissions';
import {
  type ChangeRequestSetting,
  changeRequestConfigQueryOptions,
  changeRequestKeys,
  listProjectChangeRequestsQueryOptions,
  setChangeRequestConfig,
} from './api/change-requests';
import { STATE_TONE } from './change-request-page';

type Setting = ChangeRequestSetting;

/** One environment's setting: required or not, and how many approvals, saved together. */
function SettingRow({ project, setting, canEdit }: { project: string; setting: Setting; canEdit: boolean }) {
  const [enabled, setEnabled] = useState(setting.changeRequestEnabled);
  const [approvals, setApprovals] = useState(setting.requiredApprovals);
  const save = useApiMutation({
    mutationFn: () =>
      setChangeRequestConfig(project, setting.environment, {
        changeRequestsEnabled: enabled,
        requiredApprovals: approvals,
      }),
    invalidates: [changeRequestKeys.config(project)],
    success: `Saved the change-request setting of ${setting.environment}`,
  });
  const changed = enabled !== setting.changeRequestEnabled || approvals !== setting.requiredApprovals;
  return (
    <tr>
      <td>
        <strong>{setting.environment}</strong> <Badge>{setting.type}</Badge>
      </td>
      <td>
        <label className="row">
          <input
            type="checkbox"
            checked={enabled}
            disabled={!canEdit}
            onChange={(e) => setEnabled(e.target.checked)}
            aria-label={`Require change requests in ${setting.environment}`}
          />
          {enabled ? 'Required' : 'Direct changes'}
        </label>
      </td>
      <td>
        <input
          type="number"
          min={1}
          max={10}
          style={{ width: 80 }}
          value={approvals}
          disabled={!canEdit || !enabled}
          aria-label={`Approvals needed in ${setting.environment}`}
          onChange={(e) => setApprovals(Number(e.target.value))}
        />
      </td>
      <td>
        <button
          type="button"
          className="btn btn-small"
          disabled={!canEdit || !changed || save.isPending}
          title={canEdit ? undefined : 'You need the project admin permission (UPDATE_PROJECT)'}
          onClick={() => save.mutate()}
        >
          Save
        </button>
      </td>
    </tr>
  );
}

/** A project's change requests and, per environment, whether they are required. */
export default function ProjectChangeRequestsPage() {
  const { projectId = '' } = useParams();
  const can = useCan();
  const config = useQuery(changeRequestConfigQueryOptions(projectId));
  const list = useQuery(listProjectChangeRequestsQueryOptions(projectId));
  return (
    <>
      <PageHeader
        title={`Change requests in ${projectId}`}
        subtitle={<Link to={`/projects/${projectId}`}>Back to the project</Link>}
      />
      <Card title="Where changes need a change request">
        <ErrorNotice error={config.error} />
        {config.isPending ? (
          <Loading />
        ) : (
          <table aria-label="Change-request settings">
            <thead>
              <tr>
                <th>Environment</th>
                <th>Change requests</th>
                <th>Approvals</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(config.data ?? []).map((s) => (
                <SettingRow
                  key={`${s.environment}:${s.changeRequestEnabled}:${s.requiredApprovals}`}
                  project={projectId}
                  setting={s}
                  canEdit={can('UPDATE_PROJECT', { project: projectId })}
                />
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Requests">
        <ErrorNotice error={list.error} />
        {list.isPending ? (
          <Loading />
        ) : (list.data ?? []).length === 0 ? (
          <EmptyState>No change requests in this project.</EmptyState>
        ) : (
          <table aria-label="Requests">
            <tbody>
              {(list.data ?? []).map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/projects/${projectId}/change-requests/${r.id}`}>{r.title}</Link>
                  </td>
                  <td>
                    <Badge tone={STATE_TONE[r.state]}>{r.state}</Badge>
                  </td>
                  <td>{r.environment}</td>
                  <td>{r.createdBy.username}</td>
                  <td>{formatDate(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
