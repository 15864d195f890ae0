import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ActionButton } from '../../components/ui/action-button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Card, EmptyState, ErrorNotice, formatDate, Loading, PageHeader } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import {
  archivedFeaturesQueryOptions,
  archiveKey,
  deleteArchivedFeature,
  reviveFeature,
} from './api/archived-features';

/** Archived features: revive them or delete them for good. */
export default function ArchivePage() {
  const whyNot = useWhyNot();
  const list = useQuery(archivedFeaturesQueryOptions());
  const [deleting, setDeleting] = useState<string | null>(null);
  const revive = useApiMutation({
    mutationFn: reviveFeature,
    invalidates: [archiveKey, ['projects']],
    success: (_r, name) => `${name} revived`,
  });
  const remove = useApiMutation({
    mutationFn: deleteArchivedFeature,
    invalidates: [archiveKey],
    success: (_r, name) => `${name} deleted`,
  });
  return (
    <>
      <PageHeader
        title="Archive"
        subtitle="Archived flags are not sent to SDKs. Revive one to use it again."
      />
      <Card>
        {list.isPending ? <Loading /> : null}
        <ErrorNotice error={list.error} />
        {list.data?.features.length === 0 ? <EmptyState>The archive is empty.</EmptyState> : null}
        {list.data?.features.length ? (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Project</th>
                  <th>Archived</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.features.map((f) => (
                  <tr key={f.name}>
                    <td className="cell-name">{f.name}</td>
                    <td>{f.project}</td>
                    <td className="muted">{formatDate(f.archivedAt)}</td>
                    <td className="row">
                      <ActionButton
                        type="button"
                        className="btn btn-small"
                        disabledReason={whyNot('UPDATE_FEATURE', { project: f.project })}
                        onClick={() => revive.mutate(f.name)}
                      >
                        Revive
                      </ActionButton>
                      <ActionButton
                        type="button"
                        className="btn btn-small btn-ghost"
                        disabledReason={whyNot('DELETE_FEATURE', { project: f.project })}
                        onClick={() => setDeleting(f.name)}
                      >
                        Delete
                      </ActionButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete feature for good"
        message={`Delete ${deleting}? This cannot be undone.`}
        confirmLabel="Delete"
        danger
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </>
  );
}
