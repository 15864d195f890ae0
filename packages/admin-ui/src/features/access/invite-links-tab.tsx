import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, formatDate, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { ADMIN_ONLY, useCan } from '../auth/permissions';
import { inviteLinksKey, inviteLinksQueryOptions } from './api/access';

const key = inviteLinksKey;

/** Invite links: people who follow one join as Viewers. */
export function InviteLinksTab() {
  const admin = useCan()('ADMIN');
  const list = useQuery(inviteLinksQueryOptions());
  const [name, setName] = useState('');
  const [days, setDays] = useState('7');
  const create = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.POST('/api/admin/invite-link/tokens', {
          body: { name, expiresAt: new Date(Date.now() + Number(days) * 86_400_000).toISOString() },
        }),
      ),
    invalidates: [key],
    success: 'Invite link created',
    toastErrors: false,
  });
  const errors = useFormErrors(create.error, ['name', 'expiresAt']);
  const disable = useApiMutation({
    mutationFn: (token: string) =>
      answerOf(
        api.PUT('/api/admin/invite-link/tokens/{token}', {
          params: { path: { token } },
          body: { enabled: false },
        }),
      ),
    invalidates: [key],
    success: 'Invite link disabled',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = [
      ...(name.trim() ? [] : [{ path: 'name', message: 'Give the link a name.' }]),
      ...(Number(days) > 0 ? [] : [{ path: 'expiresAt', message: 'Expiry must be at least one day.' }]),
    ];
    if (errors.report(problems)) create.mutate();
  };
  return (
    <div className="grid grid-2">
      <Card title="Invite links">
        {list.isPending ? <Loading /> : null}
        <ErrorNotice error={list.error} />
        <table>
          <tbody>
            {list.data?.tokens.map((t) => (
              <tr key={t.secret}>
                <td>
                  <div className="cell-name">{t.name}</div>
                  <div className="muted">
                    expires {formatDate(t.expiresAt)} · {t.users?.length ?? 0} joined
                  </div>
                </td>
                <td>{t.enabled ? <Badge tone="good">active</Badge> : <Badge>disabled</Badge>}</td>
                <td>
                  <ActionButton
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabledReason={
                      !admin ? ADMIN_ONLY : !t.enabled ? 'This link is already disabled.' : null
                    }
                    onClick={() => disable.mutate(t.secret)}
                  >
                    Disable
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="New invite link">
        {create.data ? (
          <div className="gap-below">
            <SecretOnce secret={create.data.url ?? create.data.secret} label="invite link" />
          </div>
        ) : null}
        <form onSubmit={submit} noValidate>
          <Field label="Name" htmlFor="invite-name" error={errors.of('name')}>
            <input id="invite-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Expires in (days)" htmlFor="invite-days" error={errors.of('expiresAt')}>
            <input
              id="invite-days"
              type="number"
              min={1}
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
          </Field>
          <ErrorNotice error={errors.rest} />
          <div className="form-actions">
            <ActionButton
              type="submit"
              className="btn btn-primary"
              disabledReason={admin ? null : ADMIN_ONLY}
            >
              Create invite link
            </ActionButton>
          </div>
        </form>
      </Card>
    </div>
  );
}
