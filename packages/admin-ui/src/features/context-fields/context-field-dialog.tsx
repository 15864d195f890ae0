import { useState } from 'react';
import { api } from '../../api/client';
import type { ContextField } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { updateContextFieldSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, contextFieldKeys } from './api';
import { fromLegalValues, LegalValueRows, legalValueFields, toLegalValues } from './legal-value-rows';

/**
 * Edits a context field: description, stickiness, and its legal values with their descriptions. With
 * `project`, a field of that project's own (`/api/admin/projects/:project/context/:name`).
 */
export function ContextFieldDialog({
  field,
  project,
  onClose,
}: {
  field: ContextField;
  project?: string;
  onClose(): void;
}) {
  const [description, setDescription] = useState(field.description ?? '');
  const [stickiness, setStickiness] = useState(field.stickiness);
  const [rows, setRows] = useState(fromLegalValues(field.legalValues));
  const body = () => ({
    name: field.name,
    description: description.trim() || null,
    stickiness,
    legalValues: toLegalValues(rows),
  });
  const save = useApiMutation({
    mutationFn: () =>
      answerOf(
        project === undefined
          ? api.PUT('/api/admin/context/{contextField}', {
              params: { path: { contextField: field.name } },
              body: body(),
            })
          : api.PUT('/api/admin/projects/{projectId}/context/{contextField}', {
              params: { path: { projectId: project, contextField: field.name } },
              body: body(),
            }),
      ),
    invalidates: [contextFieldKeys.all],
    success: `${field.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const errors = useFormErrors(save.error, ['description', 'stickiness', ...legalValueFields(rows.length)]);
  const unchanged =
    JSON.stringify(body()) ===
    JSON.stringify({
      name: field.name,
      description: field.description || null,
      stickiness: field.stickiness,
      legalValues: toLegalValues(fromLegalValues(field.legalValues)),
    });
  const submit = () => {
    if (errors.check(updateContextFieldSchema, body())) save.mutate();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Context field ${field.name}`} wide>
      <Field label="Description" htmlFor="cf-edit-desc" error={errors.of('description')}>
        <input id="cf-edit-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <label className="check">
        <input type="checkbox" checked={stickiness} onChange={(e) => setStickiness(e.target.checked)} />
        Usable as stickiness
      </label>
      <Field label="Legal values" error={errors.of('legalValues')}>
        <LegalValueRows
          rows={rows}
          onChange={(next) => {
            setRows(next);
            errors.report([]);
          }}
          errorOf={errors.of}
        />
      </Field>
      <ErrorNotice error={errors.rest} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <ActionButton
          type="button"
          className="btn btn-primary"
          disabled={save.isPending}
          disabledReason={unchanged ? 'Nothing changed.' : null}
          onClick={submit}
        >
          Save context field
        </ActionButton>
      </div>
    </Dialog>
  );
}
