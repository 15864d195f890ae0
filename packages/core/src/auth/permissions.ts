import type { ApiTokenType } from '../domain/api-token.js';
import { ROLES } from '../domain/user.js';
import { FlagstaffError } from '../errors.js';

/** Root-level permissions (granted by root roles). */
export const ROOT_PERMISSIONS = [
  'ADMIN',
  'CREATE_ADDON',
  'UPDATE_ADDON',
  'DELETE_ADDON',
  'CREATE_CLIENT_API_TOKEN',
  'READ_CLIENT_API_TOKEN',
  'UPDATE_CLIENT_API_TOKEN',
  'DELETE_CLIENT_API_TOKEN',
  'CREATE_FRONTEND_API_TOKEN',
  'READ_FRONTEND_API_TOKEN',
  'UPDATE_FRONTEND_API_TOKEN',
  'DELETE_FRONTEND_API_TOKEN',
  'CREATE_SEGMENT',
  'UPDATE_SEGMENT',
  'DELETE_SEGMENT',
  'CREATE_CONTEXT_FIELD',
  'UPDATE_CONTEXT_FIELD',
  'DELETE_CONTEXT_FIELD',
  'CREATE_TAG_TYPE',
  'UPDATE_TAG_TYPE',
  'DELETE_TAG_TYPE',
  'CREATE_PROJECT',
  'UPDATE_APPLICATION',
  'DELETE_APPLICATION',
  'CREATE_STRATEGY',
  'UPDATE_STRATEGY',
  'DELETE_STRATEGY',
] as const;

/** Project-level permissions (root Editor in open projects, or a project role). */
export const PROJECT_PERMISSIONS = [
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'DELETE_FEATURE',
  'UPDATE_FEATURE_DEPENDENCY',
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  // SDK tokens scoped to exactly the project (the reference's project token permissions).
  'CREATE_PROJECT_API_TOKEN',
  'READ_PROJECT_API_TOKEN',
  'DELETE_PROJECT_API_TOKEN',
] as const;

/** Environment-level permissions (named with the environment in errors). */
export const ENVIRONMENT_PERMISSIONS = [
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  // Reviewing change requests: approving (or rejecting) and applying them, per environment.
  'APPROVE_CHANGE_REQUEST',
  'APPLY_CHANGE_REQUEST',
] as const;

/** The review permissions: project Owners (and Editors in open projects) hold them, Members do not. */
const REVIEW_PERMISSIONS = new Set<string>(['APPROVE_CHANGE_REQUEST', 'APPLY_CHANGE_REQUEST']);

/** Reading needs no named permission beyond being signed in to the admin API. */
export const NONE = 'NONE' as const;

export type RootPermission = (typeof ROOT_PERMISSIONS)[number];
export type ProjectPermission = (typeof PROJECT_PERMISSIONS)[number];
export type EnvironmentPermission = (typeof ENVIRONMENT_PERMISSIONS)[number];
export type Permission = RootPermission | ProjectPermission | EnvironmentPermission | typeof NONE;

const projectScoped = new Set<string>([...PROJECT_PERMISSIONS, ...ENVIRONMENT_PERMISSIONS]);
const environmentScoped = new Set<string>(ENVIRONMENT_PERMISSIONS);

/** Whether a permission is decided per project (and so by project roles too). */
export const isProjectPermission = (p: Permission): p is ProjectPermission | EnvironmentPermission =>
  projectScoped.has(p);
export const isEnvironmentPermission = (p: Permission): p is EnvironmentPermission =>
  environmentScoped.has(p);

/** What root Editors may do outside projects: everything at root level but ADMIN and addons. */
export const EDITOR_ROOT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>(
  ROOT_PERMISSIONS.filter((p) => p !== 'ADMIN' && !p.endsWith('_ADDON')),
);

/** Permissions a project role grants inside its project. */
export const PROJECT_ROLE_PERMISSIONS: Readonly<Record<string, ReadonlySet<Permission>>> = {
  Owner: new Set<Permission>([...PROJECT_PERMISSIONS, ...ENVIRONMENT_PERMISSIONS]),
  Member: new Set<Permission>([
    'CREATE_FEATURE',
    'UPDATE_FEATURE',
    'DELETE_FEATURE',
    'UPDATE_FEATURE_DEPENDENCY',
    ...ENVIRONMENT_PERMISSIONS.filter((p) => !REVIEW_PERMISSIONS.has(p)),
  ]),
};

/** The permissions a project role (by role id) grants in its project; none for unknown roles. */
export const rolePermissions = (roleId: number): ReadonlySet<Permission> =>
  (roleId === ROLES.Owner.id
    ? PROJECT_ROLE_PERMISSIONS.Owner
    : roleId === ROLES.Member.id
      ? PROJECT_ROLE_PERMISSIONS.Member
      : undefined) ?? new Set();

/** What an API token of a type needs for an action, as in the reference: admin tokens always need ADMIN. */
export const apiTokenPermission = (
  action: 'CREATE' | 'READ' | 'UPDATE' | 'DELETE',
  type: ApiTokenType,
): RootPermission =>
  type === 'admin' ? 'ADMIN' : `${action}_${type === 'client' ? 'CLIENT' : 'FRONTEND'}_API_TOKEN`;

/** The FORBIDDEN error naming the missing permission (and the environment when it matters). */
export const noAccess = (permission: Permission, environment?: string): FlagstaffError =>
  new FlagstaffError(
    'FORBIDDEN',
    `You need the "${permission}" permission to perform this action${
      environment && isEnvironmentPermission(permission) ? ` in the "${environment}" environment` : ''
    }.`,
    { permission, environment },
  );
