import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { ContextField } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { contextFieldSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { answerOf, contextFieldKeys, listContextFieldsQueryOptions } from './api';
import { ContextFieldDialog } from './context-field-dialog';
import { type LegalValueDraft, LegalValueRows, legalValueFields, toLegalValues } from './legal-value-rows';

const key = contextFieldKeys.all;

/** Context fields: what constraints can test, with optional legal values; created, edited, deleted. */
export default function ContextFieldsPage() {
  const whyNot = useWhyNot();
  const list = useQuery(listContextFieldsQueryOptions());
  const empty = { name: '', description: '', legalValues: [] as LegalValueDraft[], stickiness: false };
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<ContextField | null>(null);
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
    mutationFn: () => answerOf(api.POST('/api/admin/context', { body: body() })),
    invalidates: [key],
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
  const remove = useApiMutation({
    mutationFn: (contextField: string) =>
      answerOf(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField } } })),
    invalidates: [key],
    success: 'Context field deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (errors.check(contextFieldSchema, body())) create.mutate();
  };
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
                  <td>
                    <div className="cell-name">{f.name}</div>
                    <div className="muted">{f.description}</div>
                    <div className="chips">
                      {f.legalValues.map((l) => (
                        <span key={l.value} className="badge tag" title={l.description}>
                          {l.value}
                          {l.description ? <span className="muted"> · {l.description}</span> : null}
                        </span>
                      ))}
                    </div>
                  </td>
                  <td>{f.stickiness ? <Badge tone="info">stickiness</Badge> : null}</td>
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
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="cf-name" error={errors.of('name')}>
              <input id="cf-name" value={form.name} onChange={(e) => edit({ name: e.target.value })} />
            </Field>
            <Field label="Description" htmlFor="cf-desc" error={errors.of('description')}>
              <input
                id="cf-desc"
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
              <ActionButton
                type="submit"
                className="btn btn-primary"
                disabledReason={whyNot('CREATE_CONTEXT_FIELD')}
              >
                Create context field
              </ActionButton>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <ContextFieldDialog field={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
