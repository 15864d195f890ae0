import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCurrentUser } from '../auth/permissions';
import {
  changeRequestConfigQueryOptions,
  changeRequestKeys,
  pendingChangeRequestsQueryOptions,
} from './api/change-requests';

export const pendingKey = changeRequestKeys.pending;

/** The environments of a project where changes go through change requests. */
export function useProtectedEnvironments(project: string): ReadonlySet<string> {
  const config = useQuery(changeRequestConfigQueryOptions(project));
  return new Set((config.data ?? []).filter((c) => c.changeRequestEnabled).map((c) => c.environment));
}

/** Open change requests touching the feature: the caller's drafts first, as "N changes in draft". */
export function DraftBar({ project, feature }: { project: string; feature: string }) {
  const me = useCurrentUser();
  const pending = useQuery(pendingChangeRequestsQueryOptions(project, feature));
  const requests = pending.data ?? [];
  if (requests.length === 0) return null;
  return (
    <div className="stack" style={{ marginBottom: 12 }}>
      {requests.map((r) => {
        const changes = r.features.find((f) => f.name === feature)?.changes.length ?? 0;
        const draft = r.state === 'Draft' && r.createdBy.id === me.id;
        return (
          <div key={r.id} className="notice notice-info" role="status">
            {draft
              ? `${changes} change${changes === 1 ? '' : 's'} in your draft for ${r.environment}`
              : `${changes} change${changes === 1 ? '' : 's'} to this flag in ${r.environment} waiting (${r.state})`}{' '}
            —{' '}
            <Link to={`/projects/${project}/change-requests/${r.id}`}>
              {draft ? 'Review and submit' : 'Open request'}
            </Link>
          </div>
        );
      })}
    </div>
  );
}
