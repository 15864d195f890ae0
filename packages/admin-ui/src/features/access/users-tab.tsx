import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import {
  Badge,
  Card,
  ErrorNotice,
  Field,
  formatDate,
  formatRelative,
  Loading,
} from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { ADMIN_ONLY, useCan } from '../auth/permissions';
import { useSession } from '../auth/use-session';
import { rolesQueryOptions, usersQueryOptions } from './api/access';
import { UserRowActions } from './user-row-actions';

/** Users with their root role, the roles that exist, adding a user; an Admin edits, resets and deletes. */
export function UsersTab() {
  const admin = useCan()('ADMIN');
  const session = useSession().data;
  const selfId = session?.kind === 'signed-in' ? session.session.user.id : null;
  const users = useQuery(usersQueryOptions());
  const roles = useQuery(rolesQueryOptions());
  const rootRoles = (roles.data?.roles ?? []).filter((r) => r.type === 'root' || r.type === 'root-custom');
  const [form, setForm] = useState({ name: '', email: '', rootRole: 3 });
  const create = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.POST('/api/admin/user-admin', {
          body: { name: form.name || undefined, email: form.email, rootRole: form.rootRole },
        }),
      ),
    invalidates: [['users']],
    success: 'User created',
    toastErrors: false,
    onSuccess: () => setForm({ name: '', email: '', rootRole: 3 }),
  });
  const errors = useFormErrors(create.error, ['name', 'email', 'rootRole']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const valid = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.email);
    if (errors.report(valid ? [] : [{ path: 'email', message: 'must be a valid e-mail address' }]))
      create.mutate();
  };
  return (
    <div>
      <Card title="Users">
        {users.isPending ? <Loading /> : null}
        <ErrorNotice error={users.error} />
        <table>
          <tbody>
            {users.data?.users.map((u) => (
              <tr key={u.id} data-testid={`user-row-${u.id}`}>
                <td>
                  <div className="cell-name">{u.name ?? u.username ?? u.email}</div>
                  <div className="muted">{u.email}</div>
                </td>
                <td>
                  <Badge tone="info">
                    {roles.data?.roles.find((r) => r.id === u.rootRole)?.name ?? u.rootRole}
                  </Badge>
                </td>
                <td className="muted hide-phone" title={u.seenAt ? formatDate(u.seenAt) : undefined}>
                  {u.seenAt ? `last seen ${formatRelative(u.seenAt)}` : 'never seen'}
                </td>
                {admin ? (
                  <td>
                    <UserRowActions user={u} rootRoles={rootRoles} self={u.id === selfId} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <div className="grid grid-2">
        <Card title="Add user">
          {create.data?.inviteLink ? (
            <div className="stack gap-below" data-testid="set-password-link">
              <p>
                Send <strong>{create.data.name ?? create.data.email}</strong> this link: it lets them choose a
                password, once, within 24 hours.
              </p>
              <SecretOnce secret={create.data.inviteLink} label="set-password link" />
            </div>
          ) : null}
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="user-name" error={errors.of('name')}>
              <input
                id="user-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="E-mail" htmlFor="user-email" error={errors.of('email')}>
              <input
                id="user-email"
                type="email"
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
              />
            </Field>
            <Field label="Root role" htmlFor="user-role" error={errors.of('rootRole')}>
              <select
                id="user-role"
                value={form.rootRole}
                onChange={(e) => setForm({ ...form, rootRole: Number(e.target.value) })}
              >
                {rootRoles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
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
                Add user
              </ActionButton>
            </div>
          </form>
        </Card>
        <Card title="Roles">
          {(roles.data?.roles ?? []).map((r) => (
            <div key={r.id} className="row-between" style={{ padding: '4px 0' }}>
              <span>
                <strong>{r.name}</strong> <span className="muted">{r.description}</span>
              </span>
              <Badge>{r.type}</Badge>
            </div>
          ))}
        </Card>
      </div>
    </div>
  );
}
