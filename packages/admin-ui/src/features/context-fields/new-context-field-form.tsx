import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ActionButton } from '../../components/ui/action-button';
import { ErrorNotice, Field } from '../../components/ui/page';
import { contextFieldSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, contextFieldKeys } from './api';
import { type LegalValueDraft, LegalValueRows, legalValueFields, toLegalValues } from './legal-value-rows';

interface Props {
  /** A field of this project only (`/api/admin/projects/:project/context`); none: an instance-wide field. */
  project?: string;
  /** Why the caller may not create one, or null. */
  refused: string | null;
}

/** Creates a context field: name, description, legal values with descriptions, stickiness. */
export function NewContextFieldForm({ project, refused }: Props) {
  const empty = { name: '', description: '', legalValues: [] as LegalValueDraft[], stickiness: false };
  const [form, setForm] = useState(empty);
  const edit = (patch: Partial<typeof empty>) => {
    setForm({ ...form, ...patch });
    errors.report([]);
  };
  const body = () => ({
    name: form.name.trim(),
    description: form.description.trim() || null,
    stickiness: form.stickiness,
    legalValues: toLegalValues(form.legalValues),
  });
  const create = useApiMutation({
    mutationFn: () =>
      answerOf(
        project === undefined
          ? api.POST('/api/admin/context', { body: body() })
          : api.POST('/api/admin/projects/{projectId}/context', {
              params: { path: { projectId: project } },
              body: body(),
            }),
      ),
    invalidates: [project === undefined ? contextFieldKeys.all : contextFieldKeys.project(project)],
    success: 'Context field created',
    toastErrors: false,
    onSuccess: () => setForm(empty),
  });
  // A refusal naming no property (a taken name) concerns the name, the form's identity.
  const errors = useFormErrors(
    create.error,
    ['name', 'description', 'stickiness', ...legalValueFields(form.legalValues.length)],
    { fallbackField: 'name' },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (errors.check(contextFieldSchema, body())) create.mutate();
  };
  const id = project === undefined ? 'cf' : 'pcf';
  return (
    <form onSubmit={submit} noValidate aria-label="New context field">
      <Field label="Name" htmlFor={`${id}-name`} error={errors.of('name')}>
        <input id={`${id}-name`} value={form.name} onChange={(e) => edit({ name: e.target.value })} />
      </Field>
      <Field label="Description" htmlFor={`${id}-desc`} error={errors.of('description')}>
        <input
          id={`${id}-desc`}
          value={form.description}
          onChange={(e) => edit({ description: e.target.value })}
        />
      </Field>
      <Field label="Legal values" hint="None: any value is allowed." error={errors.of('legalValues')}>
        <LegalValueRows
          rows={form.legalValues}
          onChange={(legalValues) => edit({ legalValues })}
          errorOf={errors.of}
        />
      </Field>
      <label className="check">
        <input
          type="checkbox"
          checked={form.stickiness}
          onChange={(e) => edit({ stickiness: e.target.checked })}
        />
        Usable as stickiness
      </label>
      <ErrorNotice error={errors.rest} />
      <div className="form-actions">
        <ActionButton type="submit" className="btn btn-primary" disabledReason={refused}>
          Create context field
        </ActionButton>
      </div>
    </form>
  );
}
