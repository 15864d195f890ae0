import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { Role, UserView } from '../../api/types';
import { SecretOnce } from '../../components/secret-once';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const displayName = (u: UserView): string => u.name ?? u.username ?? u.email ?? `user ${u.id}`;

/**
 * Edit, reset-password link and delete for one user of the Users tab (Admins only). The signed-in
 * Admin's own row has no Delete: deleting yourself would end your session mid-page.
 */
export function UserRowActions({
  user,
  rootRoles,
  self,
}: {
  user: UserView;
  rootRoles: Role[];
  self: boolean;
}) {
  const [open, setOpen] = useState<'edit' | 'reset' | 'delete' | null>(null);
  const who = displayName(user);
  const remove = useApiMutation({
    mutationFn: () =>
      answerOf(api.DELETE('/api/admin/user-admin/{id}', { params: { path: { id: String(user.id) } } })),
    invalidates: [['users']],
    success: `Deleted ${who}`,
  });
  return (
    <div className="row-actions">
      <button
        type="button"
        className="btn btn-small"
        aria-label={`Edit ${who}`}
        onClick={() => setOpen('edit')}
      >
        Edit
      </button>
      <button
        type="button"
        className="btn btn-small"
        aria-label={`Reset-password link for ${who}`}
        onClick={() => setOpen('reset')}
      >
        Reset link
      </button>
      {self ? null : (
        <button
          type="button"
          className="btn btn-small btn-danger"
          aria-label={`Delete ${who}`}
          disabled={remove.isPending}
          onClick={() => setOpen('delete')}
        >
          Delete
        </button>
      )}
      {open === 'edit' ? (
        <EditUserDialog user={user} rootRoles={rootRoles} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'reset' ? <ResetLinkDialog user={user} onClose={() => setOpen(null)} /> : null}
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={(o) => setOpen(o ? 'delete' : null)}
        title={`Delete ${who}?`}
        message={
          <>
            <strong>{who}</strong>
            {user.email && user.email !== who ? ` (${user.email})` : ''} loses access at once: their sessions,
            personal tokens, group memberships and project roles go with them. This cannot be undone.
          </>
        }
        confirmLabel="Delete user"
        danger
        onConfirm={() => remove.mutate()}
      />
    </div>
  );
}

function EditUserDialog({
  user,
  rootRoles,
  onClose,
}: {
  user: UserView;
  rootRoles: Role[];
  onClose(): void;
}) {
  const [form, setForm] = useState({
    name: user.name ?? '',
    email: user.email ?? '',
    rootRole: user.rootRole,
  });
  const save = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.PUT('/api/admin/user-admin/{id}', {
          params: { path: { id: String(user.id) } },
          body: {
            name: form.name.trim() || undefined,
            email: form.email.trim() || undefined,
            rootRole: form.rootRole,
          },
        }),
      ),
    invalidates: [['users']],
    success: (u) => `Saved ${displayName(u)}`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const errors = useFormErrors(save.error, ['name', 'email', 'rootRole']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const email = form.email.trim();
    const problems =
      email && !EMAIL.test(email) ? [{ path: 'email', message: 'must be a valid e-mail address' }] : [];
    if (errors.report(problems)) save.mutate();
  };
  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())} title={`Edit ${displayName(user)}`}>
      <form onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="edit-user-name" error={errors.of('name')}>
          <input
            id="edit-user-name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
        </Field>
        <Field label="E-mail" htmlFor="edit-user-email" error={errors.of('email')}>
          <input
            id="edit-user-email"
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
        </Field>
        <Field
          label="Root role"
          htmlFor="edit-user-role"
          hint="A new root role signs the user out, so they sign in again under it."
          error={errors.of('rootRole')}
        >
          <select
            id="edit-user-role"
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
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function ResetLinkDialog({ user, onClose }: { user: UserView; onClose(): void }) {
  const make = useApiMutation({
    mutationFn: () => answerOf(api.POST('/api/admin/user-admin/reset-password', { body: { id: user.id } })),
    toastErrors: false,
  });
  const who = displayName(user);
  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())} title={`Reset-password link for ${who}`}>
      {make.data ? (
        <div className="stack" data-testid="reset-password-link">
          <p>
            Send <strong>{who}</strong> this link: it lets them choose a new password, once, within 24 hours.
            Flagstaff sends no e-mail.
          </p>
          <SecretOnce secret={make.data.resetPasswordUrl} label="reset-password link" />
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <>
          <p>
            Make a link with which <strong>{who}</strong> sets a new password. It works once, for 24 hours,
            and stops working when their password changes. Their current password keeps working until then.
          </p>
          <ErrorNotice error={make.error} />
          <div className="form-actions">
            <button type="button" className="btn" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={make.isPending}
              onClick={() => make.mutate()}
            >
              Make link
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
