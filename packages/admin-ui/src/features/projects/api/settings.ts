import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { Role, UserView } from '../../../api/types';
import { answerOf } from './request';

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

/** The project's members and their roles (the access area's route, not an operation yet). */
export const projectAccessQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: settingsKeys.access(projectId),
    queryFn: () =>
      unwrap<ProjectAccess>(
        api.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId } } }),
      ),
  });
export const useProjectAccess = (projectId: string) => useQuery(projectAccessQueryOptions(projectId));

/** environments.list, in sort order. */
export const listEnvironmentsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.environments,
    queryFn: () => answerOf(api.GET('/api/admin/environments')),
    select: (data) => [...data.environments].sort((a, b) => a.sortOrder - b.sortOrder),
  });
export const useAllEnvironments = () => useQuery(listEnvironmentsQueryOptions());

/** A user or group that can be given a role, as GET /user-admin/access lists them (anyone signed in may). */
export interface Assignable {
  users: { id: number; name: string | null; email: string; username: string | null }[];
  groups: { id: number; name: string; userCount: number }[];
}

/** Users and groups that can be given a role (the access area's route, not an operation yet). */
export const assignableQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.assignable,
    queryFn: () => unwrap<Assignable>(api.GET('/api/admin/user-admin/access')),
  });
export const useAssignable = () => useQuery(assignableQueryOptions());

/** contextFields.list, as the stickiness choices: the built-in `default` and `random`, and fields marked sticky. */
export const stickinessOptionsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.context,
    queryFn: () => answerOf(api.GET('/api/admin/context')),
    select: (fields) => [
      'default',
      ...new Set(['userId', 'sessionId', ...fields.filter((f) => f.stickiness).map((f) => f.name)]),
      'random',
    ],
  });
export const useStickinessOptions = () => useQuery(stickinessOptionsQueryOptions());

export const displayName = (u: Pick<UserView, 'name' | 'username' | 'email' | 'id'>): string =>
  u.name ?? u.username ?? (u.email || `user ${u.id}`);
