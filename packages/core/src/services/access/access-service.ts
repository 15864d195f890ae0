import { createHash } from 'node:crypto';
import { callerOf } from '../../auth/caller.js';
import {
  isProjectPermission,
  NONE,
  noAccess,
  type Permission,
  PROJECT_ROLE_PERMISSIONS,
} from '../../auth/permissions.js';
import {
  type ApiFamily,
  hasRootPermission,
  type Principal,
  type ProjectVisibility,
  principalOfUser,
  tokenReachesEnvironment,
  tokenReachesProject,
} from '../../auth/principal.js';
import { type ProjectRoleAssignment, ROLES } from '../../domain/user.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { Actor, ServiceDeps } from '../deps.js';
import { nowIso } from '../deps.js';
import { assignmentsOf, projectVisibility } from '../projects/project-visibility.js';
import { tokenCacheOf } from './token-cache.js';

export interface PermissionScope {
  project?: string | undefined;
  environment?: string | undefined;
  /** A feature whose project is the scope when `project` is not given. */
  feature?: string | undefined;
}

/** Hash under which API token secrets are stored and looked up. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const RECENT_HASHES = 1000;

/**
 * `hashSecret`, remembered for the last secrets seen (the map empties when full): every request
 * presents its token, and a SHA-256 costs ~25 µs in Node 20. One per service instance, so a store's
 * secrets never outlive it in memory.
 */
function createSecretHasher(): (secret: string) => string {
  const recent = new Map<string, string>();
  return (secret) => {
    let hash = recent.get(secret);
    if (hash === undefined) {
      if (recent.size >= RECENT_HASHES) recent.clear();
      hash = hashSecret(secret);
      recent.set(secret, hash);
    }
    return hash;
  };
}

const SEEN_FLUSH_MS = 60_000;

/** Authentication of API tokens and users, and the permission model. */
export function createAccessService(deps: ServiceDeps) {
  const { store } = deps;
  const lastSeenWrite = new Map<string, number>();
  const tokens = tokenCacheOf(store);
  const hashPresentedSecret = createSecretHasher();

  /** Whether a use of `key` should be written now: at most once a minute each, so requests do not write. */
  const dueForSeenStamp = (key: string, now: number): boolean => {
    if (now - (lastSeenWrite.get(key) ?? 0) < SEEN_FLUSH_MS) return false;
    if (lastSeenWrite.size >= 10_000) lastSeenWrite.clear();
    lastSeenWrite.set(key, now);
    return true;
  };

  const forbidden = (permission: Permission, scope: PermissionScope): FlagstaffError =>
    noAccess(permission, scope.environment);

  /** Whether one of the user's project roles grants the permission in the project. */
  const projectRoleGrants = (
    assignments: readonly ProjectRoleAssignment[],
    project: string,
    permission: Permission,
  ): boolean =>
    assignments.some((a) => {
      if (a.projectId !== project) return false;
      const role = a.roleId === ROLES.Owner.id ? 'Owner' : a.roleId === ROLES.Member.id ? 'Member' : null;
      return role !== null && PROJECT_ROLE_PERMISSIONS[role]?.has(permission) === true;
    });

  /** Routes without a project in their path (feature tags, the archive) are scoped by the feature's project. */
  async function resolveScope(given: PermissionScope): Promise<PermissionScope> {
    if (given.project !== undefined || given.feature === undefined) return given;
    return { ...given, project: (await store.features.get(given.feature))?.project };
  }

  /** A user's authorization on the admin API; private projects the user cannot see do not exist. */
  async function authorizeUser(
    principal: Extract<Principal, { kind: 'user' }>,
    permission: Permission,
    given: PermissionScope,
  ): Promise<void> {
    if (principal.rootRole === 'Admin') return;
    const scope = await resolveScope(given);
    const project = scope.project === undefined ? null : await store.projects.get(scope.project);
    let assignments: ProjectRoleAssignment[] | undefined;
    if (project?.mode === 'private') {
      assignments = await assignmentsOf(store, principal.userId);
      if (!assignments.some((a) => a.projectId === project.id))
        throw given.project === undefined && given.feature !== undefined
          ? notFound('feature', given.feature)
          : notFound('project', project.id);
    }
    if (permission === NONE) return;
    if (!isProjectPermission(permission)) {
      if (hasRootPermission(principal, permission)) return;
      throw forbidden(permission, scope);
    }
    if (!scope.project) {
      if (principal.rootRole === 'Editor') return;
      throw forbidden(permission, scope);
    }
    if (principal.rootRole === 'Editor' && (!project || project.mode === 'open')) return;
    assignments ??= await assignmentsOf(store, principal.userId);
    if (projectRoleGrants(assignments, scope.project, permission)) return;
    throw forbidden(permission, scope);
  }

  return {
    /** Looks up an API token by its secret; null when unknown or expired. */
    async authenticateToken(secret: string): Promise<Principal | null> {
      const hash = hashPresentedSecret(secret.trim());
      let token = tokens.get(hash);
      if (token === undefined) {
        const generation = tokens.generation;
        const found = await store.apiTokens.getByHash(hash);
        // Unknown secrets are not cached: a token created a moment later must work at once.
        if (!found) return null;
        tokens.remember(hash, found, generation);
        token = found;
      }
      const now = deps.clock.now();
      if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) return null;
      if (dueForSeenStamp(token.secretHash, now.getTime())) {
        // Usage stamps are best effort; a failed stamp must not fail the request.
        store
          .transaction((tx) => tx.apiTokens.markSeen([token.secretHash], now.toISOString()))
          .catch((e: unknown) => deps.logger.warn('could not record token use', { error: String(e) }));
      }
      return {
        kind: 'api-token',
        tokenType: token.type,
        name: token.tokenName,
        secretHash: token.secretHash,
        projects: token.projects,
        environment: token.environment,
      };
    },

    /** The principal of a known user id (host apps that authenticate users themselves). */
    async userPrincipal(userId: number): Promise<Principal | null> {
      const user = await store.users.get(userId);
      if (!user) return null;
      if (dueForSeenStamp(`user:${user.id}`, deps.clock.now().getTime())) {
        // Like token stamps: best effort, at most once a minute, never failing the request.
        store
          .transaction((tx) => tx.users.markSeen(user.id, nowIso(deps)))
          .catch((e: unknown) => deps.logger.warn('could not record user activity', { error: String(e) }));
      }
      return principalOfUser(user);
    },

    /** The actor recorded in events for a principal. */
    actorOf(principal: Principal): Actor {
      return callerOf(principal).actor;
    },

    /**
     * Throws FORBIDDEN unless the principal may use `permission` on the API family in the scope.
     * Tokens reach only their own family; admin tokens may do everything on the admin API. A
     * private project the user may not see answers NOT_FOUND (the project, or the feature when the
     * scope came from one), as if it did not exist.
     */
    async authorize(
      principal: Principal,
      api: ApiFamily,
      permission: Permission,
      given: PermissionScope = {},
    ): Promise<void> {
      if (principal.kind === 'anonymous-admin' || principal.kind === 'system') return;
      if (principal.kind === 'user') {
        if (api !== 'admin') throw new FlagstaffError('FORBIDDEN', `This endpoint needs a ${api} token.`);
        return authorizeUser(principal, permission, given);
      }
      if (principal.tokenType !== api) {
        throw new FlagstaffError(
          'FORBIDDEN',
          `This endpoint needs ${api === 'admin' ? 'an admin' : `a ${api}`} token; a ${principal.tokenType} token was used.`,
          { tokenType: principal.tokenType },
        );
      }
      // Admin tokens may do everything on the admin API, private projects included.
      if (api === 'admin') return;
      const scope = await resolveScope(given);
      if (scope.project && !tokenReachesProject(principal.projects, scope.project))
        throw forbidden(permission, scope);
      if (scope.environment && !tokenReachesEnvironment(principal.environment, scope.environment))
        throw forbidden(permission, scope);
    },

    /** Which projects the principal may see (private projects hide from non-members). */
    visibleProjects: (principal: Principal): Promise<ProjectVisibility> =>
      projectVisibility(store, principal),
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
