import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ContextField } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { updateContextFieldSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { type FormErrors, fromServer, fromZod, hasErrors, noErrors } from './context-field-errors';
import { fromLegalValues, LegalValueRows, toLegalValues } from './legal-value-rows';

/** Edits a context field: description, stickiness, and its legal values with their descriptions. */
export function ContextFieldDialog({ field, onClose }: { field: ContextField; onClose(): void }) {
  const [description, setDescription] = useState(field.description ?? '');
  const [stickiness, setStickiness] = useState(field.stickiness);
  const [rows, setRows] = useState(fromLegalValues(field.legalValues));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const body = () => ({
    name: field.name,
    description: description.trim() || null,
    stickiness,
    legalValues: toLegalValues(rows),
  });
  const save = useApiMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/admin/context/{contextField}', {
          params: { path: { contextField: field.name } },
          body: body(),
        }),
      ),
    invalidates: [['context-fields']],
    success: `${field.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const submit = () => {
    const parsed = updateContextFieldSchema.safeParse(body());
    setErrors(parsed.success ? noErrors : fromZod(parsed.error));
    if (parsed.success) save.mutate();
  };
  const shown = hasErrors(errors) ? errors : (fromServer(save.error) ?? noErrors);
  const placed = hasErrors(shown);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Context field ${field.name}`} wide>
      <Field label="Description" htmlFor="cf-edit-desc" error={shown.fields.description}>
        <input id="cf-edit-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <label className="check">
        <input type="checkbox" checked={stickiness} onChange={(e) => setStickiness(e.target.checked)} />
        Usable as stickiness
      </label>
      <Field label="Legal values" error={shown.fields.legalValues}>
        <LegalValueRows
          rows={rows}
          onChange={(next) => {
            setRows(next);
            setErrors(noErrors);
          }}
          errors={shown.rows}
        />
      </Field>
      {placed ? null : <ErrorNotice error={save.error} />}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={save.isPending} onClick={submit}>
          Save context field
        </button>
      </div>
    </Dialog>
  );
}
