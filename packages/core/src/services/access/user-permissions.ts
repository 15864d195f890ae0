import {
  EDITOR_ROOT_PERMISSIONS,
  ENVIRONMENT_PERMISSIONS,
  type Permission,
  PROJECT_PERMISSIONS,
  PROJECT_ROLE_PERMISSIONS,
} from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import { assignmentsOf } from '../../auth/project-visibility.js';
import type { PermissionGrant } from '../../domain/session.js';
import { ROLES } from '../../domain/user.js';
import type { ReadRepositories } from '../../ports/store.js';

const ENVIRONMENT_SCOPED = new Set<string>(ENVIRONMENT_PERMISSIONS);

/**
 * What a principal may do, listed the way GET /api/admin/user reports it and decided exactly as
 * `AccessService.authorize` decides: Admins (and admin tokens, and unauthenticated mode) hold ADMIN,
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
      const role = a.roleId === ROLES.Owner.id ? 'Owner' : a.roleId === ROLES.Member.id ? 'Member' : null;
      for (const p of (role && PROJECT_ROLE_PERMISSIONS[role]) ?? []) held.add(p);
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
