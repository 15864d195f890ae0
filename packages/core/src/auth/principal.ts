import type { ApiTokenType } from '../domain/api-token.js';
import { ROLES, type UserRecord } from '../domain/user.js';
import { EDITOR_ROOT_PERMISSIONS, NONE, type Permission } from './permissions.js';

/** Which API family a request is for; tokens of one type reach only their family. */
export type ApiFamily = 'admin' | 'client' | 'frontend';

/** Who is calling, as the adapter authenticated them. */
export type Principal =
  | { kind: 'user'; userId: number; name: string; rootRole: 'Admin' | 'Editor' | 'Viewer' }
  | {
      kind: 'api-token';
      tokenType: ApiTokenType;
      name: string;
      secretHash: string;
      projects: string[];
      environment: string;
    }
  /** Authentication is off (`auth: { type: 'none' }`): full access, recorded as this name. */
  | { kind: 'anonymous-admin'; name: string }
  /** Flagstaff itself (`SYSTEM`): seeding, jobs and in-process use; full access. */
  | { kind: 'system'; name: string }
  /** No credentials at all (sign-in, invite sign-up, signal endpoints): public operations only. */
  | { kind: 'anonymous'; name: string };

/** Whether a token scope reaches a project (`*` means all). */
export const tokenReachesProject = (projects: readonly string[], project: string): boolean =>
  projects.includes('*') || projects.includes(project);

/** Whether a token scope reaches an environment (`*` means all). */
export const tokenReachesEnvironment = (environment: string, wanted: string): boolean =>
  environment === '*' || environment === wanted;

/**
 * Whether the principal holds a root-level permission on the admin API, where no project is
 * involved: admin tokens, anonymous access and Admins hold all; Editors all but ADMIN and addons.
 */
export function hasRootPermission(principal: Principal, permission: Permission): boolean {
  if (principal.kind === 'anonymous-admin' || principal.kind === 'system') return true;
  if (principal.kind === 'api-token') return principal.tokenType === 'admin';
  if (principal.kind === 'anonymous') return false;
  if (principal.rootRole === 'Admin' || permission === NONE) return true;
  return principal.rootRole === 'Editor' && EDITOR_ROOT_PERMISSIONS.has(permission);
}

/** Which projects a principal may see: all of them, or only the listed ones (private projects hide). */
export type ProjectVisibility = { all: true } | { all: false; projects: ReadonlySet<string> };

export const ALL_PROJECTS: ProjectVisibility = { all: true };

/** Whether a visibility includes the project. */
export const seesProject = (visibility: ProjectVisibility, project: string): boolean =>
  visibility.all || visibility.projects.has(project);

/** The built-in root role a user's role id stands for; custom root roles act as Viewer. */
export const rootRoleName = (roleId: number): 'Admin' | 'Editor' | 'Viewer' =>
  roleId === ROLES.Admin.id ? 'Admin' : roleId === ROLES.Editor.id ? 'Editor' : 'Viewer';

/** The principal of a user, as every way of signing a user in builds it. */
export const principalOfUser = (
  user: Pick<UserRecord, 'id' | 'email' | 'username' | 'rootRole'>,
): Extract<Principal, { kind: 'user' }> => ({
  kind: 'user',
  userId: user.id,
  name: user.email ?? user.username ?? `user-${user.id}`,
  rootRole: rootRoleName(user.rootRole),
});
