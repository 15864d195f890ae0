import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { SecretOnce } from '../../components/secret-once';
import { Card, EmptyState, ErrorNotice, Field, formatDate, Loading } from '../../components/ui/page';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import {
  createPersonalToken,
  deletePersonalToken,
  listPersonalTokensQueryOptions,
  personalTokensKey,
} from './api/personal-tokens';

/** The user's personal access tokens: made with an expiry, the secret shown once, deleted at will. */
export function PersonalTokensCard() {
  const list = useQuery(listPersonalTokensQueryOptions());
  const [description, setDescription] = useState('');
  const [days, setDays] = useState('30');
  const create = useApiMutation({
    mutationFn: () =>
      createPersonalToken({
        description,
        expiresAt: new Date(Date.now() + Number(days) * 86_400_000).toISOString(),
      }),
    invalidates: [personalTokensKey],
    success: 'Token created',
    toastErrors: false,
    onSuccess: () => setDescription(''),
  });
  const remove = useApiMutation({
    mutationFn: deletePersonalToken,
    invalidates: [personalTokensKey],
    success: 'Token deleted',
  });
  const errors = useFormErrors(create.error, ['description', 'expiresAt']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const tokens = list.data?.pats ?? [];
  return (
    <Card title="Personal access tokens">
      <p className="muted gap-below">
        Tokens act as you on the admin API, for scripts and tools, until they expire.
      </p>
      {list.isPending ? <Loading /> : null}
      <ErrorNotice error={list.error} />
      {list.isSuccess && tokens.length === 0 ? <EmptyState>No tokens yet.</EmptyState> : null}
      {tokens.length > 0 ? (
        <table aria-label="Personal access tokens">
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>
                  <div className="cell-name">{t.description}</div>
                  <div className="muted">
                    expires {formatDate(t.expiresAt)} · seen {formatDate(t.seenAt)}
                  </div>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    aria-label={`Delete ${t.description}`}
                    onClick={() => remove.mutate(t.id)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {create.data ? (
        <div className="gap-below" style={{ marginTop: 16 }}>
          <SecretOnce secret={create.data.secret} label="token" />
        </div>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Field label="Description" htmlFor="pat-description" error={errors.of('description')}>
          <input id="pat-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label="Expires in (days)" htmlFor="pat-days" error={errors.of('expiresAt')}>
          <input id="pat-days" type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} />
        </Field>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Create token
          </button>
        </div>
      </form>
    </Card>
  );
}
