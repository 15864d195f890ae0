import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { Environment } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { createEnvironmentSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { ADMIN_ONLY, useCan } from '../auth/permissions';
import { answerOf, environmentKeys, listEnvironmentsQueryOptions } from './api';
import { ENVIRONMENT_TYPES, EnvironmentDialog } from './environment-dialog';

const key = environmentKeys.all;

/** Environments: their type (production asks before changes), order, on/off and deletion. */
export default function EnvironmentsPage() {
  const can = useCan();
  const admin = can('ADMIN');
  const list = useQuery(listEnvironmentsQueryOptions());
  const [form, setForm] = useState({ name: '', type: 'development' });
  const [editing, setEditing] = useState<Environment | null>(null);
  const create = useApiMutation({
    mutationFn: () => answerOf(api.POST('/api/admin/environments', { body: form })),
    invalidates: [key],
    success: 'Environment created',
    toastErrors: false,
    onSuccess: () => setForm({ name: '', type: 'development' }),
  });
  // A refusal naming no property (a taken name) concerns the name, the form's identity.
  const errors = useFormErrors(create.error, ['name', 'type'], { fallbackField: 'name' });
  const toggle = useApiMutation({
    mutationFn: ({ name, on }: { name: string; on: boolean }) =>
      answerOf(
        on
          ? api.POST('/api/admin/environments/{name}/on', { params: { path: { name } } })
          : api.POST('/api/admin/environments/{name}/off', { params: { path: { name } } }),
      ),
    invalidates: [key],
    success: (_r, v) => `${v.name} ${v.on ? 'enabled' : 'disabled'}`,
  });
  const remove = useApiMutation({
    mutationFn: (name: string) =>
      answerOf(api.DELETE('/api/admin/environments/{name}', { params: { path: { name } } })),
    invalidates: [key],
    success: 'Environment deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (errors.check(createEnvironmentSchema, form)) create.mutate();
  };
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
                        title={(admin ? null : ADMIN_ONLY) ?? undefined}
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
                      <ActionButton
                        type="button"
                        className="btn btn-small"
                        aria-label={`Edit ${env.name}`}
                        disabledReason={admin ? null : ADMIN_ONLY}
                        onClick={() => setEditing(env)}
                      >
                        Edit
                      </ActionButton>
                      <ActionButton
                        type="button"
                        className="btn btn-small btn-ghost"
                        aria-label={`Delete ${env.name}`}
                        disabledReason={
                          !admin
                            ? ADMIN_ONLY
                            : env.protected
                              ? 'Protected environments cannot be deleted.'
                              : null
                        }
                        onClick={() => remove.mutate(env.name)}
                      >
                        Delete
                      </ActionButton>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </Card>
        <Card title="New environment">
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="env-name" error={errors.of('name')}>
              <input
                id="env-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="Type" htmlFor="env-type" error={errors.of('type')}>
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
            <ErrorNotice error={errors.rest} />
            <div className="form-actions">
              <ActionButton
                type="submit"
                className="btn btn-primary"
                disabledReason={admin ? null : ADMIN_ONLY}
              >
                Create environment
              </ActionButton>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <EnvironmentDialog environment={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
