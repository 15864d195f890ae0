import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ErrorNotice, Field, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { inviteLinkQueryOptions } from './api/invite-link';
import { enterApp } from './public-pages';

/** Where an invite link leads: whoever has it joins as a Viewer and is signed in. */
export default function SignupPage() {
  const invite = new URLSearchParams(window.location.search).get('invite') ?? '';
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const link = useQuery(inviteLinkQueryOptions(invite));
  const signup = useMutation({
    mutationFn: async () => {
      await answerOf(
        api.POST('/invite/{token}/signup', {
          params: { path: { token: invite } },
          body: { name: form.name || undefined, email: form.email, password: form.password },
        }),
      );
      await answerOf(
        api.POST('/auth/simple/login', { body: { username: form.email, password: form.password } }),
      );
    },
    onSuccess: enterApp,
  });
  const errors = useFormErrors(signup.error, ['name', 'email', 'password']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signup.mutate();
  };
  // An edit answers the server's last refusal: it stops showing until the next try.
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm({ ...form, [key]: e.target.value });
    signup.reset();
  };
  return (
    <main className="center-page">
      <form className="card login-card" onSubmit={submit} noValidate>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          Flagstaff
        </div>
        <h1>Join Flagstaff</h1>
        {invite === '' ? (
          <div className="notice notice-error" role="alert">
            This invite link is incomplete; ask an Admin for a new one.
          </div>
        ) : link.isPending ? (
          <Loading label="Checking the invite…" />
        ) : link.isError ? (
          <ErrorNotice error={link.error} />
        ) : (
          <>
            <p className="muted gap-below">You were invited: sign up to see the flags as a Viewer.</p>
            <Field label="Name" htmlFor="signup-name" error={errors.of('name')}>
              <input id="signup-name" autoComplete="name" value={form.name} onChange={set('name')} />
            </Field>
            <Field label="E-mail" htmlFor="signup-email" error={errors.of('email')}>
              <input
                id="signup-email"
                type="email"
                autoComplete="email"
                value={form.email}
                onChange={set('email')}
              />
            </Field>
            <Field label="Password" htmlFor="signup-password" error={errors.of('password')}>
              <input
                id="signup-password"
                type="password"
                autoComplete="new-password"
                value={form.password}
                onChange={set('password')}
              />
            </Field>
            <ErrorNotice error={errors.rest} />
            <button className="btn btn-primary btn-block" type="submit" disabled={signup.isPending}>
              {signup.isPending ? 'Signing up…' : 'Sign up'}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
