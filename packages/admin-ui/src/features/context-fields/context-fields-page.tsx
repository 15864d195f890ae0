import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import type { ContextField } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Card, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { answerOf, contextFieldKeys, listContextFieldsQueryOptions } from './api';
import { ContextFieldCells } from './context-field-cells';
import { ContextFieldDialog } from './context-field-dialog';
import { NewContextFieldForm } from './new-context-field-form';

const key = contextFieldKeys.all;

/** Context fields: what constraints can test, with optional legal values; created, edited, deleted. */
export default function ContextFieldsPage() {
  const whyNot = useWhyNot();
  const list = useQuery(listContextFieldsQueryOptions());
  const [editing, setEditing] = useState<ContextField | null>(null);
  const remove = useApiMutation({
    mutationFn: (contextField: string) =>
      answerOf(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField } } })),
    invalidates: [key],
    success: 'Context field deleted',
  });
  return (
    <>
      <PageHeader
        title="Context fields"
        subtitle="The properties of an evaluation context that constraints can use."
      />
      <div className="grid grid-2">
        <Card title="All context fields">
          {list.isPending ? <Loading /> : null}
          <ErrorNotice error={list.error} />
          <table>
            <tbody>
              {list.data?.map((f) => (
                <tr key={f.name}>
                  <ContextFieldCells field={f} />
                  <td className="cell-actions">
                    <ActionButton
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${f.name}`}
                      disabledReason={whyNot('UPDATE_CONTEXT_FIELD')}
                      onClick={() => setEditing(f)}
                    >
                      Edit
                    </ActionButton>
                    <ActionButton
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Delete ${f.name}`}
                      disabledReason={whyNot('DELETE_CONTEXT_FIELD')}
                      onClick={() => remove.mutate(f.name)}
                    >
                      Delete
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="New context field">
          <NewContextFieldForm refused={whyNot('CREATE_CONTEXT_FIELD')} />
        </Card>
      </div>
      {editing ? <ContextFieldDialog field={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
