import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ContextField } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { contextFieldSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';

const key = ['context-fields'];

/** Context fields: what constraints can test, with optional legal values. */
export default function ContextFieldsPage() {
  const whyNot = useWhyNot();
  const list = useQuery({
    queryKey: key,
    queryFn: () => unwrap<ContextField[]>(api.GET('/api/admin/context')),
  });
  const [form, setForm] = useState({ name: '', description: '', legalValues: '', stickiness: false });
  const body = () => ({
    name: form.name,
    description: form.description || null,
    stickiness: form.stickiness,
    legalValues: form.legalValues
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .map((value) => ({ value })),
  });
  const create = useApiMutation({
    mutationFn: () => unwrap(api.POST('/api/admin/context', { body: body() })),
    invalidates: [key],
    success: 'Context field created',
    toastErrors: false,
    onSuccess: () => setForm({ name: '', description: '', legalValues: '', stickiness: false }),
  });
  const errors = useFormErrors(create.error, ['name', 'description', 'stickiness', 'legalValues']);
  const remove = useApiMutation({
    mutationFn: (contextField: string) =>
      unwrap(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField } } })),
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
                        <span key={l.value} className="badge tag">
                          {l.value}
                        </span>
                      ))}
                    </div>
                  </td>
                  <td>{f.stickiness ? <Badge tone="info">stickiness</Badge> : null}</td>
                  <td>
                    <ActionButton
                      type="button"
                      className="btn btn-small btn-ghost"
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
              <input
                id="cf-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="Description" htmlFor="cf-desc" error={errors.of('description')}>
              <input
                id="cf-desc"
                value={form.description}
                onChange={(e) => setForm({ ...form, description: e.target.value })}
              />
            </Field>
            <Field
              label="Legal values"
              htmlFor="cf-legal"
              hint="Comma separated; leave empty for any value."
              error={errors.of('legalValues')}
            >
              <input
                id="cf-legal"
                value={form.legalValues}
                onChange={(e) => setForm({ ...form, legalValues: e.target.value })}
              />
            </Field>
            <label className="check">
              <input
                type="checkbox"
                checked={form.stickiness}
                onChange={(e) => setForm({ ...form, stickiness: e.target.checked })}
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
    </>
  );
}
