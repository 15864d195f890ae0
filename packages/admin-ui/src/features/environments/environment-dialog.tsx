import { useState } from 'react';
import { api } from '../../api/client';
import { fieldError, unwrap } from '../../api/errors';
import type { Environment } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { updateEnvironmentSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { fieldErrors } from '../../lib/zod-errors';

export const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

/** Edits an environment's type (production asks before changes) and its place in the order. */
export function EnvironmentDialog({ environment, onClose }: { environment: Environment; onClose(): void }) {
  const [type, setType] = useState(environment.type);
  const [sortOrder, setSortOrder] = useState(String(environment.sortOrder));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const body = () => ({ type, sortOrder: sortOrder.trim() === '' ? Number.NaN : Number(sortOrder) });
  const save = useApiMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/admin/environments/update/{name}', {
          params: { path: { name: environment.name } },
          body: body(),
        }),
      ),
    invalidates: [['environments']],
    success: `${environment.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const server = fieldError(save.error, ['type', 'sortOrder']);
  const shown = Object.keys(errors).length ? errors : server ? { [server.field]: server.message } : {};
  const submit = () => {
    const parsed = updateEnvironmentSchema.safeParse(body());
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    // zod's wording ("expected int, received number") is not for people.
    if (found.sortOrder) found.sortOrder = 'must be a whole number';
    setErrors(found);
    if (parsed.success) save.mutate();
  };
  // A type the instance uses but this list lacks stays choosable.
  const types = ENVIRONMENT_TYPES.includes(environment.type)
    ? ENVIRONMENT_TYPES
    : [environment.type, ...ENVIRONMENT_TYPES];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Environment ${environment.name}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <Field label="Type" htmlFor="env-edit-type" error={shown.type}>
          <select
            id="env-edit-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              setErrors({});
            }}
          >
            {types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        <Field
          label="Sort order"
          htmlFor="env-edit-sort"
          hint="Lower numbers come first in every list of environments."
          error={shown.sortOrder ? `Sort order ${shown.sortOrder.replace(/^"sortOrder" /, '')}` : null}
        >
          <input
            id="env-edit-sort"
            type="number"
            step={1}
            value={sortOrder}
            onChange={(e) => {
              setSortOrder(e.target.value);
              setErrors({});
            }}
          />
        </Field>
        {Object.keys(shown).length ? null : <ErrorNotice error={save.error} />}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save environment
          </button>
        </div>
      </form>
    </Dialog>
  );
}
