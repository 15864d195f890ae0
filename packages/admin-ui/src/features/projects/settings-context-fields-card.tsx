import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import type { ContextField } from '../../api/types';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Card, EmptyState, ErrorNotice, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { contextFieldKeys, listProjectContextFieldsQueryOptions } from '../context-fields/api';
import { ContextFieldCells } from '../context-fields/context-field-cells';
import { ContextFieldDialog } from '../context-fields/context-field-dialog';
import { NewContextFieldForm } from '../context-fields/new-context-field-form';

const NEEDS = 'Changing them needs UPDATE_PROJECT in this project.';

/**
 * The project's own context fields (only its constraints use them): listed, created, edited
 * (description, stickiness, legal values with descriptions) and deleted with the instance's editors.
 */
export function ProjectContextFieldsCard({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const list = useQuery(listProjectContextFieldsQueryOptions(projectId));
  const [editing, setEditing] = useState<ContextField | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const remove = useApiMutation({
    mutationFn: (contextField: string) =>
      answerOf(
        api.DELETE('/api/admin/projects/{projectId}/context/{contextField}', {
          params: { path: { projectId, contextField } },
        }),
      ),
    invalidates: [contextFieldKeys.all],
    success: (_r, name) => `Context field ${name} deleted`,
  });
  return (
    <Card title={`Context fields${list.data ? ` (${list.data.length})` : ''}`}>
      <p className="muted">
        Fields only this project's constraints use. Their names are unique across the instance; the
        instance-wide list leaves them out.
      </p>
      {list.isPending ? <Loading /> : null}
      <ErrorNotice error={list.error} />
      {list.data?.length === 0 ? <EmptyState>No context fields of this project's own.</EmptyState> : null}
      {list.data && list.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <tbody>
              {list.data.map((f) => (
                <tr key={f.name} data-testid={`project-context-${f.name}`}>
                  <ContextFieldCells field={f} />
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${f.name}`}
                      disabled={!canEdit}
                      title={canEdit ? undefined : NEEDS}
                      onClick={() => setEditing(f)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      aria-label={`Delete ${f.name}`}
                      disabled={!canEdit}
                      title={canEdit ? undefined : NEEDS}
                      onClick={() => setRemoving(f.name)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canEdit ? (
        <details className="settings-subform" open={adding} onToggle={(e) => setAdding(e.currentTarget.open)}>
          <summary>New context field</summary>
          {/* Drawn only while open: its fields would otherwise share labels with the general settings. */}
          {adding ? <NewContextFieldForm project={projectId} refused={null} /> : null}
        </details>
      ) : null}
      {editing ? (
        <ContextFieldDialog field={editing} project={projectId} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => (o ? null : setRemoving(null))}
        title={`Delete context field ${removing ?? ''}?`}
        message="Constraints that already test it are left as they are; the field is no longer offered for new ones."
        confirmLabel="Delete"
        danger
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </Card>
  );
}
