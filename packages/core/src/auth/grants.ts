import type { PermissionGrant } from '../domain/session.js';
import type { ReadRepositories } from '../ports/store.js';
import {
  EDITOR_ROOT_PERMISSIONS,
  ENVIRONMENT_PERMISSIONS,
  type Permission,
  PROJECT_PERMISSIONS,
  rolePermissions,
} from './permissions.js';
import type { Principal } from './principal.js';
import { assignmentsOf } from './project-visibility.js';

const ENVIRONMENT_SCOPED = new Set<string>(ENVIRONMENT_PERMISSIONS);

/**
 * What a principal may do, listed the way GET /api/admin/user reports it; part of the policy
 * (`policy.permissionsOf`) and decided by the same rules as `policy.require`: Admins (and admin tokens, and unauthenticated mode) hold ADMIN,
 * which stands for everything; Editors hold the root permissions but ADMIN and addons, and every
 * project permission in open projects; project roles (direct or through groups) add their
 * permissions in their project. Environment permissions are listed per environment of the project.
 */
export async function permissionsOf(
  repos: ReadRepositories,
  principal: Principal,
): Promise<PermissionGrant[]> {
  if (principal.kind === 'anonymous-admin' || principal.kind === 'system') return [{ permission: 'ADMIN' }];
  if (principal.kind === 'api-token') return principal.tokenType === 'admin' ? [{ permission: 'ADMIN' }] : [];
  if (principal.kind === 'anonymous') return [];
  if (principal.rootRole === 'Admin') return [{ permission: 'ADMIN' }];

  const grants: PermissionGrant[] = [];
  if (principal.rootRole === 'Editor')
    for (const permission of EDITOR_ROOT_PERMISSIONS) grants.push({ permission });

  const projects = await repos.projects.list();
  const assignments = await assignmentsOf(repos, principal.userId);
  const byProject = new Map<string, Set<Permission>>();
  for (const project of projects) {
    const held = new Set<Permission>();
    if (principal.rootRole === 'Editor' && project.mode === 'open') {
      for (const p of PROJECT_PERMISSIONS) held.add(p);
      for (const p of ENVIRONMENT_PERMISSIONS) held.add(p);
    }
    for (const a of assignments) {
      if (a.projectId !== project.id) continue;
      for (const p of rolePermissions(a.roleId)) held.add(p);
    }
    if (held.size > 0) byProject.set(project.id, held);
  }

  for (const [project, held] of byProject) {
    const environments = [...held].some((p) => ENVIRONMENT_SCOPED.has(p))
      ? (await repos.environments.listForProject(project)).map((link) => link.environment)
      : [];
    for (const permission of held) {
      if (!ENVIRONMENT_SCOPED.has(permission)) grants.push({ permission, project });
      else for (const environment of environments) grants.push({ permission, project, environment });
    }
  }
  return grants;
}
