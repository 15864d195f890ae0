import { useState } from 'react';
import { api } from '../../api/client';
import type { Environment } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { updateEnvironmentSchema } from '../../lib/domain';
import { useFormErrors, zodProblems } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf } from './api';

export const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

/** Edits an environment's type (production asks before changes) and its place in the order. */
export function EnvironmentDialog({ environment, onClose }: { environment: Environment; onClose(): void }) {
  const [type, setType] = useState(environment.type);
  const [sortOrder, setSortOrder] = useState(String(environment.sortOrder));
  const body = () => ({ type, sortOrder: sortOrder.trim() === '' ? Number.NaN : Number(sortOrder) });
  const save = useApiMutation({
    mutationFn: () =>
      answerOf(
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
  const errors = useFormErrors(save.error, ['type', 'sortOrder']);
  const unchanged = type === environment.type && sortOrder.trim() === String(environment.sortOrder);
  const submit = () => {
    const parsed = updateEnvironmentSchema.safeParse(body());
    const problems = parsed.success
      ? []
      : // zod's wording ("expected integer, received float") is not for people.
        zodProblems(parsed.error).map((p) =>
          p.path === 'sortOrder' ? { ...p, message: 'Sort order must be a whole number' } : p,
        );
    if (errors.report(problems)) save.mutate();
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
        <Field label="Type" htmlFor="env-edit-type" error={errors.of('type')}>
          <select
            id="env-edit-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              errors.report([]);
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
          error={errors.of('sortOrder')}
        >
          <input
            id="env-edit-sort"
            type="number"
            step={1}
            value={sortOrder}
            onChange={(e) => {
              setSortOrder(e.target.value);
              errors.report([]);
            }}
          />
        </Field>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <ActionButton
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending}
            disabledReason={unchanged ? 'Nothing changed.' : null}
          >
            Save environment
          </ActionButton>
        </div>
      </form>
    </Dialog>
  );
}
