import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ContextField, Environment, Role, UserView } from '../../api/types';

/** A user or group with their roles in a project, as GET /projects/:p/access lists them. */
interface AccessFields {
  roleId: number;
  roles: number[];
  addedAt: string;
}
export interface GroupSummary {
  id: number;
  name: string;
  description: string | null;
  userCount: number;
  users: { user: UserView }[];
}
export interface ProjectAccess {
  roles: Role[];
  users: (UserView & AccessFields)[];
  groups: (GroupSummary & AccessFields)[];
}

export const settingsKeys = {
  access: (projectId: string) => ['projects', projectId, 'access'] as const,
  environments: ['environments'] as const,
  assignable: ['users', 'assignable'] as const,
  context: ['context'] as const,
};

export const useProjectAccess = (projectId: string) =>
  useQuery({
    queryKey: settingsKeys.access(projectId),
    queryFn: () =>
      unwrap<ProjectAccess>(
        api.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId } } }),
      ),
  });

export const useAllEnvironments = () =>
  useQuery({
    queryKey: settingsKeys.environments,
    queryFn: () => unwrap<{ environments: Environment[] }>(api.GET('/api/admin/environments')),
    select: (data) => [...data.environments].sort((a, b) => a.sortOrder - b.sortOrder),
  });

/** A user or group that can be given a role, as GET /user-admin/access lists them (anyone signed in may). */
export interface Assignable {
  users: { id: number; name: string | null; email: string; username: string | null }[];
  groups: { id: number; name: string; userCount: number }[];
}

export const useAssignable = () =>
  useQuery({
    queryKey: settingsKeys.assignable,
    queryFn: () => unwrap<Assignable>(api.GET('/api/admin/user-admin/access')),
  });

/** Context fields that may be used for stickiness, beside the built-in `default` and `random`. */
export const useStickinessOptions = () =>
  useQuery({
    queryKey: settingsKeys.context,
    queryFn: () => unwrap<ContextField[]>(api.GET('/api/admin/context')),
    select: (fields) => [
      'default',
      ...new Set(['userId', 'sessionId', ...fields.filter((f) => f.stickiness).map((f) => f.name)]),
      'random',
    ],
  });

export const displayName = (u: Pick<UserView, 'name' | 'username' | 'email' | 'id'>): string =>
  u.name ?? u.username ?? (u.email || `user ${u.id}`);
