import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { sessionKey } from './use-session';

/** Sign in with a username or e-mail and a password; the server sets an HttpOnly session cookie. */
export default function LoginPage() {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => answerOf(api.POST('/auth/simple/login', { body: { username, password } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKey }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (username && password) login.mutate();
  };
  return (
    <main className="center-page">
      <form className="card login-card" onSubmit={submit}>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          Flagstaff
        </div>
        <h1>Sign in</h1>
        <Field label="Username or e-mail" htmlFor="login-username">
          <input
            id="login-username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
        </Field>
        <Field label="Password" htmlFor="login-password">
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </Field>
        <ErrorNotice error={login.error} />
        <button className="btn btn-primary btn-block" type="submit" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
