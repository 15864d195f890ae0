import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Card, EmptyState, ErrorNotice, Loading } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan } from '../auth/permissions';
import { groupsKey, groupsQueryOptions, rootRolesQueryOptions } from './api/access';
import { AssignGroupDialog, type Group, GroupDialog, userLabel } from './group-dialogs';

export const groupKeys = { all: groupsKey };

/** Groups of users: who is in each; Admins create, edit, assign to projects and delete them. */
export function GroupsTab() {
  const admin = useCan()('ADMIN');
  const groups = useQuery({
    ...groupsQueryOptions(),
    select: (data) => data.groups,
  });
  const rootRoles = useQuery(rootRolesQueryOptions());
  const roleName = (id: number | null) =>
    id == null ? null : (rootRoles.data?.find((r) => r.id === id)?.name ?? `role ${id}`);
  const [open, setOpen] = useState<{ kind: 'create' | 'edit' | 'assign' | 'delete'; group?: Group } | null>(
    null,
  );
  const remove = useApiMutation({
    mutationFn: (g: Group) =>
      answerOf(api.DELETE('/api/admin/groups/{groupId}', { params: { path: { groupId: String(g.id) } } })),
    invalidates: [groupKeys.all, ['projects'], ['users', 'assignable']],
    success: (_r, g) => `Group ${g.name} deleted`,
  });
  return (
    <Card
      title="Groups"
      actions={
        <button
          type="button"
          className="btn btn-primary"
          disabled={!admin}
          title={admin ? undefined : 'Only Admins manage groups.'}
          onClick={() => setOpen({ kind: 'create' })}
        >
          New group
        </button>
      }
    >
      <p className="muted">
        A group gives all its users a role in a project at once: assign the group to a project, and whoever
        joins the group later has that role too.
      </p>
      {groups.isPending ? <Loading /> : null}
      <ErrorNotice error={groups.error} />
      {groups.data?.length === 0 ? <EmptyState>No groups yet.</EmptyState> : null}
      {groups.data && groups.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Group</th>
                <th>Root role</th>
                <th>Users</th>
                <th className="hide-phone">Projects</th>
                {admin ? <th /> : null}
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => (
                <tr key={g.id} data-testid={`group-row-${g.id}`}>
                  <td>
                    <div className="cell-name">{g.name}</div>
                    <div className="muted">{g.description || 'No description'}</div>
                  </td>
                  <td data-testid={`group-root-role-${g.id}`}>
                    {roleName(g.rootRole) ?? <span className="muted">None</span>}
                  </td>
                  <td>
                    <div className="chip-list" data-testid={`group-users-${g.id}`}>
                      {g.users.length === 0 ? <span className="muted">No users</span> : null}
                      {g.users.map(({ user }) => (
                        <span key={user.id} className="chip">
                          {userLabel(user)}
                        </span>
                      ))}
                    </div>
                  </td>
                  <td className="hide-phone">
                    <div className="chip-list" data-testid={`group-projects-${g.id}`}>
                      {(g.projects ?? []).length === 0 ? <span className="muted">None</span> : null}
                      {(g.projects ?? []).map((p) => (
                        <Link
                          key={p}
                          className="chip chip-link"
                          to={`/projects/${encodeURIComponent(p)}/settings`}
                        >
                          {p}
                        </Link>
                      ))}
                    </div>
                  </td>
                  {admin ? (
                    <td>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Edit ${g.name}`}
                          onClick={() => setOpen({ kind: 'edit', group: g })}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Assign ${g.name} to a project`}
                          onClick={() => setOpen({ kind: 'assign', group: g })}
                        >
                          Assign to project
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger"
                          aria-label={`Delete ${g.name}`}
                          onClick={() => setOpen({ kind: 'delete', group: g })}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <GroupDialog group={open.group} onClose={() => setOpen(null)} />
      ) : null}
      {open?.kind === 'assign' && open.group ? (
        <AssignGroupDialog group={open.group} onClose={() => setOpen(null)} />
      ) : null}
      <ConfirmDialog
        open={open?.kind === 'delete'}
        onOpenChange={(o) => (o ? null : setOpen(null))}
        title={`Delete group ${open?.group?.name ?? ''}?`}
        message="Its users stay, but lose the project roles they had through this group. This cannot be undone."
        confirmLabel="Delete group"
        danger
        onConfirm={() => open?.group && remove.mutate(open.group)}
      />
    </Card>
  );
}
