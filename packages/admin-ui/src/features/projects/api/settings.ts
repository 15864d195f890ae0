import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { UserView } from '../../../api/types';
import { answerOf } from '../../../lib/api-answer';

export const settingsKeys = {
  access: (projectId: string) => ['projects', projectId, 'access'] as const,
  environments: ['environments'] as const,
  userSearch: (q: string) => ['users', 'search', q] as const,
  groupSearch: (q: string) => ['groups', 'search', q] as const,
  context: ['context'] as const,
};

/** The project's members and their roles (the access area's route). */
export const projectAccessQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: settingsKeys.access(projectId),
    queryFn: () =>
      answerOf(api.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId } } })),
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

/** users.search: users whose name, e-mail or username hold `q` (the server answers at most 100). */
export const userSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: settingsKeys.userSearch(q),
    queryFn: () => answerOf(api.GET('/api/admin/user-admin/search', { params: { query: { q } } })),
    placeholderData: keepPreviousData,
  });

/** groups.search: groups whose name or description hold `q` (at most 100). */
export const groupSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: settingsKeys.groupSearch(q),
    queryFn: () => answerOf(api.GET('/api/admin/groups/search', { params: { query: { q } } })),
    placeholderData: keepPreviousData,
  });

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
