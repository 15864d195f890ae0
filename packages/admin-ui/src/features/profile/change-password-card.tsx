import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { Card, ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';

const EMPTY = { oldPassword: '', password: '', confirmPassword: '' };

/** Changing one's own password: the current one is required; other sessions end, this one stays. */
export function ChangePasswordCard() {
  const [form, setForm] = useState(EMPTY);
  const change = useApiMutation({
    mutationFn: () => answerOf(api.POST('/api/admin/user/change-password', { body: form })),
    success: 'Password changed',
    toastErrors: false,
    onSuccess: () => setForm(EMPTY),
  });
  const errors = useFormErrors(change.error, ['oldPassword', 'password', 'confirmPassword']);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Card title="Change password">
      <form onSubmit={submit} noValidate>
        <Field label="Current password" htmlFor="old-password" error={errors.of('oldPassword')}>
          <input
            id="old-password"
            type="password"
            autoComplete="current-password"
            value={form.oldPassword}
            onChange={set('oldPassword')}
          />
        </Field>
        <Field label="New password" htmlFor="profile-new-password" error={errors.of('password')}>
          <input
            id="profile-new-password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
          />
        </Field>
        <Field
          label="Repeat the new password"
          htmlFor="profile-confirm-password"
          error={errors.of('confirmPassword')}
        >
          <input
            id="profile-confirm-password"
            type="password"
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={set('confirmPassword')}
          />
        </Field>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>
            Change password
          </button>
        </div>
      </form>
    </Card>
  );
}
