import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { Badge, Card, ErrorNotice, Field, formatDate, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { createApiTokenSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import {
  apiTokensKey,
  apiTokensQueryOptions,
  environmentsQueryOptions,
  projectsQueryOptions,
} from './api/access';

const key = apiTokensKey;
type TokenType = 'client' | 'frontend' | 'admin';

/** API tokens for SDKs: create (secret shown once) and delete. */
export function ApiTokensTab() {
  const can = useCan();
  const whyNot = useWhyNot();
  const list = useQuery(apiTokensQueryOptions());
  const environments = useQuery(environmentsQueryOptions());
  const projects = useQuery(projectsQueryOptions());
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState<{
    tokenName: string;
    type: TokenType;
    environment: string;
    project: string;
  }>({ tokenName: '', type: 'client', environment: 'development', project: '*' });
  const [secret, setSecret] = useState<string | null>(null);
  const body = () => ({
    tokenName: form.tokenName,
    type: form.type,
    ...(form.type === 'admin' ? {} : { environment: form.environment, projects: [form.project] }),
  });
  const create = useApiMutation({
    mutationFn: () => answerOf(api.POST('/api/admin/api-tokens', { body: body() })),
    invalidates: [key],
    success: 'Token created',
    toastErrors: false,
    onSuccess: (t) => setSecret(t.secret),
  });
  const errors = useFormErrors(create.error, ['tokenName', 'type', 'environment', 'projects']);
  const remove = useApiMutation({
    mutationFn: (token: string) =>
      answerOf(api.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token } } })),
    invalidates: [key],
    success: 'Token deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (errors.check(createApiTokenSchema, body())) create.mutate();
  };
  const close = () => {
    setCreating(false);
    setSecret(null);
    create.reset();
  };
  return (
    <Card
      title="API tokens"
      actions={
        <ActionButton
          type="button"
          className="btn btn-primary"
          disabledReason={whyNot('CREATE_CLIENT_API_TOKEN') && whyNot('CREATE_FRONTEND_API_TOKEN')}
          onClick={() => setCreating(true)}
        >
          New API token
        </ActionButton>
      }
    >
      {list.isPending ? <Loading /> : null}
      <ErrorNotice error={list.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Environment</th>
              <th>Projects</th>
              <th className="hide-phone">Created</th>
              <th className="hide-phone">Last seen</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data?.tokens.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  No API tokens yet. SDKs need one to fetch flags.
                </td>
              </tr>
            ) : null}
            {list.data?.tokens.map((t) => (
              <tr key={t.secret}>
                <td className="cell-name">{t.tokenName}</td>
                <td>
                  <Badge tone={t.type === 'admin' ? 'warn' : 'info'}>{t.type}</Badge>
                </td>
                <td>{t.environment}</td>
                <td>{t.projects.join(', ')}</td>
                <td className="muted hide-phone">{formatDate(t.createdAt)}</td>
                <td className="muted hide-phone">{formatDate(t.seenAt)}</td>
                <td>
                  <ActionButton
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabledReason={whyNot(`DELETE_${t.type.toUpperCase()}_API_TOKEN`)}
                    onClick={() => remove.mutate(t.secret)}
                  >
                    Delete
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Dialog open={creating} onOpenChange={(o) => !o && close()} title="New API token">
        {secret ? (
          <>
            <SecretOnce secret={secret} label="token" />
            <div className="form-actions">
              <button type="button" className="btn btn-primary" onClick={close}>
                Done
              </button>
            </div>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <Field label="Token name" htmlFor="token-name" error={errors.of('tokenName')}>
              <input
                id="token-name"
                value={form.tokenName}
                onChange={(e) => setForm({ ...form, tokenName: e.target.value })}
              />
            </Field>
            <Field label="Type" htmlFor="token-type">
              <select
                id="token-type"
                value={form.type}
                onChange={(e) =>
                  setForm({
                    ...form,
                    type:
                      e.target.value === 'frontend'
                        ? 'frontend'
                        : e.target.value === 'admin'
                          ? 'admin'
                          : 'client',
                  })
                }
              >
                <option value="client">client (server SDKs)</option>
                <option value="frontend">frontend (browser SDKs)</option>
                {can('ADMIN') ? <option value="admin">admin</option> : null}
              </select>
            </Field>
            {form.type !== 'admin' ? (
              <div className="form-grid">
                <Field label="Environment" htmlFor="token-env">
                  <select
                    id="token-env"
                    value={form.environment}
                    onChange={(e) => setForm({ ...form, environment: e.target.value })}
                  >
                    {environments.data?.environments.map((env) => (
                      <option key={env.name}>{env.name}</option>
                    ))}
                  </select>
                </Field>
                <Field label="Project" htmlFor="token-project" error={errors.of('projects')}>
                  <select
                    id="token-project"
                    value={form.project}
                    onChange={(e) => setForm({ ...form, project: e.target.value })}
                  >
                    <option value="*">All projects</option>
                    {projects.data?.projects.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
            ) : null}
            <ErrorNotice error={errors.rest} />
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={create.isPending}>
                Create token
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </Card>
  );
}
