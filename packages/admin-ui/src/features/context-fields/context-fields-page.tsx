import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ContextField } from '../../api/types';
import { Badge, Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { contextFieldSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan } from '../auth/permissions';
import { ContextFieldDialog } from './context-field-dialog';
import { type FormErrors, fromServer, fromZod, hasErrors, noErrors } from './context-field-errors';
import { type LegalValueDraft, LegalValueRows, toLegalValues } from './legal-value-rows';

const key = ['context-fields'];

/** Context fields: what constraints can test, with optional legal values; created, edited, deleted. */
export default function ContextFieldsPage() {
  const can = useCan();
  const list = useQuery({
    queryKey: key,
    queryFn: () => unwrap<ContextField[]>(api.GET('/api/admin/context')),
  });
  const empty = { name: '', description: '', legalValues: [] as LegalValueDraft[], stickiness: false };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [editing, setEditing] = useState<ContextField | null>(null);
  const edit = (patch: Partial<typeof empty>) => {
    setForm({ ...form, ...patch });
    setErrors(noErrors);
  };
  const body = () => ({
    name: form.name.trim(),
    description: form.description.trim() || null,
    stickiness: form.stickiness,
    legalValues: toLegalValues(form.legalValues),
  });
  const create = useApiMutation({
    mutationFn: () => unwrap(api.POST('/api/admin/context', { body: body() })),
    invalidates: [key],
    success: 'Context field created',
    toastErrors: false,
    onSuccess: () => setForm(empty),
  });
  const remove = useApiMutation({
    mutationFn: (contextField: string) =>
      unwrap(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField } } })),
    invalidates: [key],
    success: 'Context field deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = contextFieldSchema.safeParse(body());
    setErrors(parsed.success ? noErrors : fromZod(parsed.error));
    if (parsed.success) create.mutate();
  };
  const shown = hasErrors(errors) ? errors : (fromServer(create.error) ?? noErrors);
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
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${f.name}`}
                      disabled={!can('UPDATE_CONTEXT_FIELD')}
                      onClick={() => setEditing(f)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Delete ${f.name}`}
                      disabled={!can('DELETE_CONTEXT_FIELD')}
                      onClick={() => remove.mutate(f.name)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="New context field">
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="cf-name" error={shown.fields.name}>
              <input id="cf-name" value={form.name} onChange={(e) => edit({ name: e.target.value })} />
            </Field>
            <Field label="Description" htmlFor="cf-desc" error={shown.fields.description}>
              <input
                id="cf-desc"
                value={form.description}
                onChange={(e) => edit({ description: e.target.value })}
              />
            </Field>
            <Field label="Legal values" hint="None: any value is allowed." error={shown.fields.legalValues}>
              <LegalValueRows
                rows={form.legalValues}
                onChange={(legalValues) => edit({ legalValues })}
                errors={shown.rows}
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
            {hasErrors(shown) ? null : <ErrorNotice error={create.error} />}
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={!can('CREATE_CONTEXT_FIELD')}>
                Create context field
              </button>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <ContextFieldDialog field={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
