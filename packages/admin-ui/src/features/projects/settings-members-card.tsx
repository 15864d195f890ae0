import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { Role } from '../../api/types';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Badge, Card, EmptyState, ErrorNotice, Field, formatDate, Loading } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, displayName, projectAccessQueryOptions, projectKeys, settingsKeys } from './api';
import { MemberPicker, type Subject } from './member-picker';

/** Users and groups with roles in the project: add, change role, remove. */
export function MembersCard({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const access = useQuery(projectAccessQueryOptions(projectId));
  const [removing, setRemoving] = useState<Subject | null>(null);
  const invalidates = [settingsKeys.access(projectId), projectKeys.all];
  const setRole = useApiMutation({
    mutationFn: ({ subject, roleId }: { subject: Subject; roleId: number }) =>
      answerOf(
        subject.kind === 'user'
          ? api.PUT('/api/admin/projects/{projectId}/users/{userId}/roles', {
              params: { path: { projectId, userId: String(subject.id) } },
              body: { roles: [roleId] },
            })
          : api.PUT('/api/admin/projects/{projectId}/groups/{groupId}/roles', {
              params: { path: { projectId, groupId: String(subject.id) } },
              body: { roles: [roleId] },
            }),
      ),
    invalidates,
    success: (_r, v) => `${v.subject.name} is now ${roleName(access.data?.roles, v.roleId)}`,
  });
  const remove = useApiMutation({
    mutationFn: (subject: Subject) =>
      answerOf(
        subject.kind === 'user'
          ? api.DELETE('/api/admin/projects/{projectId}/users/{userId}/roles', {
              params: { path: { projectId, userId: String(subject.id) } },
            })
          : api.DELETE('/api/admin/projects/{projectId}/groups/{groupId}/roles', {
              params: { path: { projectId, groupId: String(subject.id) } },
            }),
      ),
    invalidates,
    success: (_r, s) => `${s.name} removed from the project`,
  });
  const roles = access.data?.roles ?? [];
  const rows: (Subject & { roleId: number; detail: string; addedAt: string })[] = [
    ...(access.data?.users ?? []).map((u) => ({
      kind: 'user' as const,
      id: u.id,
      name: displayName(u),
      roleId: u.roleId,
      detail: u.email,
      addedAt: u.addedAt,
    })),
    ...(access.data?.groups ?? []).map((g) => ({
      kind: 'group' as const,
      id: g.id,
      name: g.name,
      roleId: g.roleId,
      detail: `${g.userCount} user${g.userCount === 1 ? '' : 's'}`,
      addedAt: g.addedAt,
    })),
  ];
  return (
    <Card title={`Members${access.data ? ` (${rows.length})` : ''}`}>
      <p className="muted">
        Members hold a project role: Owners may do everything in the project, Members create and change its
        flags. In a private project only members see it.
      </p>
      {access.isPending ? <Loading /> : null}
      <ErrorNotice error={access.error} />
      {access.data && rows.length === 0 ? <EmptyState>No members yet.</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.kind}-${row.id}`} data-testid={`member-${row.kind}-${row.id}`}>
                  <td>
                    <div className="cell-name">
                      {row.name} {row.kind === 'group' ? <Badge tone="info">group</Badge> : null}
                    </div>
                    <div className="muted">{row.detail}</div>
                  </td>
                  <td>
                    <select
                      aria-label={`Role of ${row.name}`}
                      value={row.roleId}
                      disabled={!canEdit || setRole.isPending}
                      onChange={(e) => setRole.mutate({ subject: row, roleId: Number(e.target.value) })}
                    >
                      {roles.map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="muted hide-phone">added {formatDate(row.addedAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      disabled={!canEdit}
                      aria-label={`Remove ${row.name}`}
                      onClick={() => setRemoving(row)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canEdit && access.data ? <AddMemberForm projectId={projectId} roles={roles} taken={rows} /> : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => (o ? null : setRemoving(null))}
        title={`Remove ${removing?.name ?? ''} from the project?`}
        message={
          removing?.kind === 'group'
            ? 'Its users lose the role they had here through the group (not roles they hold themselves).'
            : 'They lose their role here; in a private project they no longer see it.'
        }
        confirmLabel="Remove"
        danger
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </Card>
  );
}

const roleName = (roles: Role[] | undefined, id: number) =>
  roles?.find((r) => r.id === id)?.name ?? `role ${id}`;

function AddMemberForm({ projectId, roles, taken }: { projectId: string; roles: Role[]; taken: Subject[] }) {
  const [who, setWho] = useState<Subject | null>(null);
  // A new picker (empty) after each member added.
  const [round, setRound] = useState(0);
  const [roleId, setRoleId] = useState(roles.find((r) => r.name === 'Member')?.id ?? roles[0]?.id ?? 0);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useApiMutation({
    mutationFn: ({ kind, id }: Subject) =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/role/{roleId}/access', {
          params: { path: { projectId, roleId: String(roleId) } },
          body: kind === 'user' ? { users: [{ id }] } : { groups: [{ id }] },
        }),
      ),
    invalidates: [settingsKeys.access(projectId), projectKeys.all],
    success: (_r, s) => `${s.name} added`,
    onSuccess: () => {
      setWho(null);
      setRound((r) => r + 1);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!who) return setProblem('Choose a user or a group to add: type part of a name and pick it.');
    setProblem(null);
    add.mutate(who);
  };
  return (
    <form onSubmit={submit} noValidate className="add-member" aria-label="Add member">
      <Field label="Add a user or group" htmlFor="member-subject" error={problem}>
        <MemberPicker
          key={round}
          id="member-subject"
          exclude={taken}
          value={who}
          onChange={(subject) => {
            setWho(subject);
            if (subject) setProblem(null);
          }}
          invalid={Boolean(problem)}
        />
      </Field>
      <Field label="Role" htmlFor="member-role">
        <select id="member-role" value={roleId} onChange={(e) => setRoleId(Number(e.target.value))}>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>
        Add member
      </button>
    </form>
  );
}
