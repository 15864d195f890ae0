import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ApiError, fieldError, unwrap } from '../../api/errors';
import type { Environment } from '../../api/types';
import { Badge, Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { createEnvironmentSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { fieldErrors } from '../../lib/zod-errors';
import { useCan } from '../auth/permissions';
import { ENVIRONMENT_TYPES, EnvironmentDialog } from './environment-dialog';

const key = ['environments'];

/** Environments: their type (production asks before changes), order, on/off and deletion. */
export default function EnvironmentsPage() {
  const can = useCan();
  const admin = can('ADMIN');
  const list = useQuery({
    queryKey: key,
    queryFn: () => unwrap<{ environments: Environment[] }>(api.GET('/api/admin/environments')),
  });
  const [form, setForm] = useState({ name: '', type: 'development' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<Environment | null>(null);
  const create = useApiMutation({
    mutationFn: () => unwrap(api.POST('/api/admin/environments', { body: form })),
    invalidates: [key],
    toastErrors: false,
    success: 'Environment created',
    onSuccess: () => setForm({ name: '', type: 'development' }),
  });
  const toggle = useApiMutation({
    mutationFn: ({ name, on }: { name: string; on: boolean }) =>
      unwrap(
        on
          ? api.POST('/api/admin/environments/{name}/on', { params: { path: { name } } })
          : api.POST('/api/admin/environments/{name}/off', { params: { path: { name } } }),
      ),
    invalidates: [key],
    success: (_r, v) => `${v.name} ${v.on ? 'enabled' : 'disabled'}`,
  });
  const remove = useApiMutation({
    mutationFn: (name: string) =>
      unwrap(api.DELETE('/api/admin/environments/{name}', { params: { path: { name } } })),
    invalidates: [key],
    success: 'Environment deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = createEnvironmentSchema.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (parsed.success) create.mutate();
  };
  // A refusal of the name (taken: 409, or invalid) shows under the name; anything else above the button.
  const nameRefused =
    create.error instanceof ApiError && create.error.status === 409
      ? create.error.message
      : fieldError(create.error, ['name'])?.message;
  const shownErrors = Object.keys(errors).length ? errors : nameRefused ? { name: nameRefused } : {};
  return (
    <>
      <PageHeader
        title="Environments"
        subtitle="Where flags are evaluated: each has its own switches and strategies."
      />
      <div className="grid grid-2">
        <Card title="All environments">
          {list.isPending ? <Loading /> : null}
          <ErrorNotice error={list.error} />
          <table>
            <tbody>
              {[...(list.data?.environments ?? [])]
                .sort((a, b) => a.sortOrder - b.sortOrder)
                .map((env) => (
                  <tr key={env.name}>
                    <td>
                      <Switch
                        checked={env.enabled}
                        disabled={!admin}
                        label={`Environment ${env.name} enabled`}
                        onCheckedChange={(on) => toggle.mutate({ name: env.name, on })}
                      />
                    </td>
                    <td className="cell-name">{env.name}</td>
                    <td>
                      <Badge tone={env.type === 'production' ? 'warn' : 'neutral'}>{env.type}</Badge>{' '}
                      {env.protected ? <Badge>protected</Badge> : null}
                      <div className="hint" title="Sort order">
                        #{env.sortOrder}
                      </div>
                    </td>
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`Edit ${env.name}`}
                        disabled={!admin}
                        onClick={() => setEditing(env)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        aria-label={`Delete ${env.name}`}
                        disabled={!admin || env.protected}
                        onClick={() => remove.mutate(env.name)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </Card>
        <Card title="New environment">
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="env-name" error={shownErrors.name}>
              <input
                id="env-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="Type" htmlFor="env-type" error={errors.type}>
              <select
                id="env-type"
                value={form.type}
                onChange={(e) => setForm({ ...form, type: e.target.value })}
              >
                {ENVIRONMENT_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </Field>
            {create.error && !nameRefused ? <ErrorNotice error={create.error} /> : null}
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={!admin}>
                Create environment
              </button>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <EnvironmentDialog environment={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
