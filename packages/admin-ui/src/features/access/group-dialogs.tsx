import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { UserView } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { MemberPicker } from '../projects/member-picker';
import { type Group, projectsQueryOptions, rolesQueryOptions, rootRolesQueryOptions } from './api/access';

export type { Group };

export const userLabel = (u: Pick<UserView, 'id' | 'name' | 'username' | 'email'>): string =>
  u.name ?? u.username ?? (u.email || `user ${u.id}`);

/** Creates a group, or edits one: name, description, root role and its users (added and removed here). */
export function GroupDialog({ group, onClose }: { group?: Group; onClose(): void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [rootRole, setRootRole] = useState(group?.rootRole == null ? '' : String(group.rootRole));
  const rootRoles = useQuery(rootRolesQueryOptions());
  const [members, setMembers] = useState<number[]>(group?.users.map((u) => u.user.id) ?? []);
  // Names of the members shown, from the group and from what was picked.
  const [names, setNames] = useState(
    () => new Map(group?.users.map(({ user }) => [user.id, userLabel(user)] as const) ?? []),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const body = () => ({
    name: name.trim(),
    description: description.trim() || null,
    rootRole: rootRole === '' ? null : Number(rootRole),
    users: members.map((id) => ({ user: { id } })),
  });
  const save = useApiMutation({
    mutationFn: () =>
      group
        ? answerOf(
            api.PUT('/api/admin/groups/{groupId}', {
              params: { path: { groupId: String(group.id) } },
              body: body(),
            }),
          )
        : answerOf(api.POST('/api/admin/groups', { body: body() })),
    invalidates: [['groups'], ['projects'], ['users', 'assignable']],
    success: group ? `Group ${name.trim()} saved` : `Group ${name.trim()} created`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const rootRoleError =
    save.error instanceof ApiError && /^"rootRole"/.test(save.error.message) ? save.error.message : null;
  // Name problems (taken, empty) show next to the name, root role ones next to it; anything else below the form.
  const nameError =
    problem ??
    (save.error instanceof ApiError && (save.error.status === 409 || /^"name"/.test(save.error.message))
      ? save.error.message
      : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('"name" must be a non-empty group name');
    setProblem(null);
    save.mutate();
  };
  const title = group ? `Edit group ${group.name}` : 'New group';
  return (
    <Dialog open onOpenChange={(o) => (o ? null : onClose())} title={title}>
      <form onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="group-name" error={nameError}>
          <input id="group-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Description" htmlFor="group-description">
          <input
            id="group-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <Field
          label="Root role"
          htmlFor="group-root-role"
          error={rootRoleError}
          hint="Stored with the group, as the reference's groups carry one. Its users' permissions still come from their own root role and the group's project roles."
        >
          <select id="group-root-role" value={rootRole} onChange={(e) => setRootRole(e.target.value)}>
            <option value="">None</option>
            {(rootRoles.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <div className="field">
          <span className="field-label">Users ({members.length})</span>
          <div className="chip-list" data-testid="group-members">
            {members.length === 0 ? <span className="muted">No users yet.</span> : null}
            {members.map((id) => {
              const label = names.get(id) ?? `user ${id}`;
              return (
                <span key={id} className="chip">
                  {label}
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${label} from the group`}
                    onClick={() => setMembers((m) => m.filter((x) => x !== id))}
                  >
                    ×
                  </button>
                </span>
              );
            })}
          </div>
        </div>
        {/* Users are found by the server's search as one types: fine with thousands of them. */}
        <MemberPicker
          key={members.length}
          id="group-user-to-add"
          label="User to add"
          kinds={['user']}
          exclude={members.map((id) => ({ kind: 'user' as const, id }))}
          value={null}
          onChange={(picked) => {
            if (!picked) return;
            setNames((n) => new Map(n).set(picked.id, picked.name));
            setMembers((m) => [...m, picked.id]);
          }}
        />
        {save.error && !nameError && !rootRoleError ? <ErrorNotice error={save.error} /> : null}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {group ? 'Save group' : 'Create group'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Gives the group a role in a project (its users then hold that role there). */
export function AssignGroupDialog({ group, onClose }: { group: Group; onClose(): void }) {
  const projects = useQuery({
    ...projectsQueryOptions(),
    select: (data) => data.projects,
  });
  const roles = useQuery({
    ...rolesQueryOptions(),
    select: (data) => data.roles.filter((r) => r.type === 'project' || r.type === 'custom'),
  });
  const [projectId, setProjectId] = useState('');
  const [roleId, setRoleId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const effectiveRole = roleId || String(roles.data?.find((r) => r.name === 'Member')?.id ?? '');
  const assign = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/role/{roleId}/access', {
          params: { path: { projectId, roleId: effectiveRole } },
          body: { groups: [{ id: group.id }] },
        }),
      ),
    invalidates: [['projects']],
    success: `${group.name} assigned to ${projectId}`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!projectId) return setProblem('Choose a project.');
    setProblem(null);
    assign.mutate();
  };
  return (
    <Dialog open onOpenChange={(o) => (o ? null : onClose())} title={`Assign ${group.name} to a project`}>
      <form onSubmit={submit} noValidate>
        <Field label="Project" htmlFor="assign-project" error={problem}>
          <select id="assign-project" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            <option value="">Choose a project…</option>
            {(projects.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.id}, {p.mode})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Role" htmlFor="assign-role">
          <select id="assign-role" value={effectiveRole} onChange={(e) => setRoleId(e.target.value)}>
            {(roles.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNotice error={assign.error} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={assign.isPending}>
            Assign
          </button>
        </div>
      </form>
    </Dialog>
  );
}
