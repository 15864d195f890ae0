import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const apiTokensKey = ['api-tokens'] as const;
export const inviteLinksKey = ['invite-links'] as const;
export const groupsKey = ['groups'] as const;

/** The SDK API tokens. */
export const apiTokensQueryOptions = () =>
  queryOptions({ queryKey: apiTokensKey, queryFn: () => answerOf(api.GET('/api/admin/api-tokens')) });

/** The environments a token may be scoped to. */
export const environmentsQueryOptions = () =>
  queryOptions({ queryKey: ['environments'], queryFn: () => answerOf(api.GET('/api/admin/environments')) });

/** The projects. */
export const projectsQueryOptions = () =>
  queryOptions({ queryKey: ['projects'], queryFn: () => answerOf(api.GET('/api/admin/projects')) });

/** The roles that exist. */
export const rolesQueryOptions = () =>
  queryOptions({ queryKey: ['roles'], queryFn: () => answerOf(api.GET('/api/admin/roles')) });

/** The root roles (not project roles): what a group's `rootRole` may be. */
export const rootRolesQueryOptions = () =>
  queryOptions({
    queryKey: ['roles'],
    queryFn: () => answerOf(api.GET('/api/admin/roles')),
    select: (data) => data.roles.filter((r) => r.type !== 'project' && r.type !== 'custom'),
  });

/** The users, with their root role. */
export const usersQueryOptions = () =>
  queryOptions({ queryKey: ['users'], queryFn: () => answerOf(api.GET('/api/admin/user-admin')) });

/** The groups with their users. */
const fetchGroups = () => answerOf(api.GET('/api/admin/groups'));
export const groupsQueryOptions = () => queryOptions({ queryKey: groupsKey, queryFn: fetchGroups });

/** The invite links. */
export const inviteLinksQueryOptions = () =>
  queryOptions({
    queryKey: inviteLinksKey,
    queryFn: () => answerOf(api.GET('/api/admin/invite-link/tokens')),
  });

/** A group as GET /groups answers it. */
export type Group = Awaited<ReturnType<typeof fetchGroups>>['groups'][number];
