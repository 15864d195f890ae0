import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ErrorNotice, Field, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { resetLinkQueryOptions } from './api/reset-link';
import { enterApp } from './public-pages';

/**
 * Where a set-password link (new users) or a reset link leads: the user chooses a password under the
 * server's rules, the link stops working, and they are signed in with it.
 */
export default function SetPasswordPage({ kind }: { kind: 'new-user' | 'reset-password' }) {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const owner = useQuery(resetLinkQueryOptions(token));
  const save = useMutation({
    mutationFn: async () => {
      await answerOf(api.POST('/auth/reset/password', { body: { token, password } }));
      const username = owner.data?.email ?? owner.data?.username ?? '';
      await answerOf(api.POST('/auth/simple/login', { body: { username, password } }));
    },
    onSuccess: enterApp,
  });
  const errors = useFormErrors(save.error, ['password']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const differs = password !== confirm ? 'The two passwords differ.' : null;
    setMismatch(differs);
    if (!differs) save.mutate();
  };
  const who = owner.data ? (owner.data.name ?? owner.data.email ?? owner.data.username) : null;
  return (
    <main className="center-page">
      <form className="card login-card" onSubmit={submit} noValidate>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          Flagstaff
        </div>
        <h1>{kind === 'new-user' ? 'Choose your password' : 'Reset your password'}</h1>
        {token === '' ? (
          <div className="notice notice-error" role="alert">
            This link has no token; ask an Admin for a new one.
          </div>
        ) : owner.isPending ? (
          <Loading label="Checking the link…" />
        ) : owner.isError ? (
          <ErrorNotice error={owner.error} />
        ) : (
          <>
            <p className="muted gap-below">
              {kind === 'new-user' ? 'Welcome' : 'Hello'}, <strong>{who}</strong>
              {owner.data?.email && who !== owner.data.email ? ` (${owner.data.email})` : ''}. The link works
              once: after this you sign in with the new password.
            </p>
            <Field label="New password" htmlFor="new-password" error={errors.of('password')}>
              <input
                id="new-password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value);
                  save.reset();
                }}
              />
            </Field>
            <Field label="Repeat the password" htmlFor="confirm-password" error={mismatch}>
              <input
                id="confirm-password"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
            </Field>
            <ErrorNotice error={errors.rest} />
            <button className="btn btn-primary btn-block" type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Set password and sign in'}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
