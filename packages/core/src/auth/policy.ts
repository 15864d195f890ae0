import type { PermissionGrant } from '../domain/session.js';
import type { ProjectRoleAssignment } from '../domain/user.js';
import { FlagstaffError, notFound } from '../errors.js';
import type { ReadRepositories } from '../ports/store.js';
import type { Actor } from '../services/deps.js';
import type { Caller } from './caller.js';
import { requireDirectChangeAllowed } from './change-request-guard.js';
import { permissionsOf } from './grants.js';
import {
  apiTokenPermission,
  isProjectPermission,
  NONE,
  noAccess,
  type Permission,
  rolePermissions,
} from './permissions.js';
import {
  type ApiFamily,
  hasRootPermission,
  type Principal,
  type ProjectVisibility,
  tokenReachesEnvironment,
  tokenReachesProject,
} from './principal.js';
import { assignmentsOf, canSeeProject, hiddenProjects, projectVisibility } from './project-visibility.js';
import {
  judgeToken,
  projectTokenPermission,
  type TokenAction,
  type TokenScope,
  type TokenVerdict,
} from './token-access.js';

const TOKEN_TYPES = ['client', 'frontend', 'admin'] as const;

/** Where an operation acts: its project (or the project of `feature`) and environment. */
export interface PermissionScope {
  project?: string | undefined;
  environment?: string | undefined;
  /** A feature whose project is the scope when `project` is not given. */
  feature?: string | undefined;
}

/** Which callers an operation is for: an API family, or `public` (anyone, signed in or not). */
export type Audience = ApiFamily | 'public';

/** Whether one of the user's project roles grants the permission in the project. */
const projectRoleGrants = (
  assignments: readonly ProjectRoleAssignment[],
  project: string,
  permission: Permission,
): boolean => assignments.some((a) => a.projectId === project && rolePermissions(a.roleId).has(permission));

const wrongFamily = (audience: ApiFamily, principal: Principal): FlagstaffError =>
  principal.kind === 'api-token'
    ? new FlagstaffError(
        'FORBIDDEN',
        `This endpoint needs ${audience === 'admin' ? 'an admin' : `a ${audience}`} token; a ${principal.tokenType} token was used.`,
        { tokenType: principal.tokenType },
      )
    : new FlagstaffError('FORBIDDEN', `This endpoint needs a ${audience} token.`);

/**
 * The one place that decides who may do and see what. Every service operation asks it first with
 * its caller, permission and scope; nothing else checks permissions, and HTTP only maps requests
 * onto operations. Private projects a user may not see do not exist (NOT_FOUND, never FORBIDDEN);
 * tokens reach only their own API family and scope; `SYSTEM` may do everything; an anonymous caller
 * reaches public operations only.
 */
export interface PolicyOptions {
  /** Whether changes through the admin API are refused now (maintenance mode). */
  writesRefused?: () => Promise<boolean>;
}

export function createPolicy(repos: ReadRepositories, options: PolicyOptions = {}) {
  /** Operations addressed by a feature (tags, the archive) are scoped by the feature's project. */
  async function resolveScope(given: PermissionScope): Promise<PermissionScope> {
    if (given.project !== undefined || given.feature === undefined) return given;
    return { ...given, project: (await repos.features.get(given.feature))?.project };
  }

  async function requireOfUser(
    principal: Extract<Principal, { kind: 'user' }>,
    permission: Permission,
    given: PermissionScope,
  ): Promise<void> {
    if (principal.rootRole === 'Admin') return;
    const scope = await resolveScope(given);
    const project = scope.project === undefined ? null : await repos.projects.get(scope.project);
    let assignments: ProjectRoleAssignment[] | undefined;
    if (project?.mode === 'private') {
      assignments = await assignmentsOf(repos, principal.userId);
      if (!assignments.some((a) => a.projectId === project.id))
        throw given.project === undefined && given.feature !== undefined
          ? notFound('feature', given.feature)
          : notFound('project', project.id);
    }
    if (permission === NONE) return;
    if (!isProjectPermission(permission)) {
      if (hasRootPermission(principal, permission)) return;
      throw noAccess(permission, scope.environment);
    }
    if (!scope.project) {
      if (principal.rootRole === 'Editor') return;
      throw noAccess(permission, scope.environment);
    }
    if (principal.rootRole === 'Editor' && (!project || project.mode === 'open')) return;
    assignments ??= await assignmentsOf(repos, principal.userId);
    if (projectRoleGrants(assignments, scope.project, permission)) return;
    throw noAccess(permission, scope.environment);
  }

  /**
   * Throws unless the caller may use `permission` in `scope` for an operation of `audience`
   * (default: the admin API). FORBIDDEN names the permission; UNAUTHENTICATED for an anonymous
   * caller outside public operations.
   */
  async function require(
    caller: Caller,
    permission: Permission,
    given: PermissionScope = {},
    audience: Audience = 'admin',
  ): Promise<void> {
    const { principal } = caller;
    if (audience === 'public' || principal.kind === 'system' || principal.kind === 'anonymous-admin') return;
    if (principal.kind === 'anonymous')
      throw new FlagstaffError('UNAUTHENTICATED', 'You must sign in or present an API token.');
    if (principal.kind === 'user') {
      if (audience !== 'admin') throw wrongFamily(audience, principal);
      return requireOfUser(principal, permission, given);
    }
    if (principal.tokenType !== audience) throw wrongFamily(audience, principal);
    // Admin tokens may do everything on the admin API, private projects included.
    if (audience === 'admin') return;
    const scope = await resolveScope(given);
    if (scope.project && !tokenReachesProject(principal.projects, scope.project))
      throw noAccess(permission, scope.environment);
    if (scope.environment && !tokenReachesEnvironment(principal.environment, scope.environment))
      throw noAccess(permission, scope.environment);
  }

  /** `require` as a question: false where it would refuse with FORBIDDEN; other refusals still throw. */
  async function allows(
    caller: Caller,
    permission: Permission,
    scope: PermissionScope = {},
  ): Promise<boolean> {
    try {
      await require(caller, permission, scope);
      return true;
    } catch (error) {
      if (error instanceof FlagstaffError && error.code === 'FORBIDDEN') return false;
      throw error;
    }
  }

  return {
    require,
    allows,

    /**
     * How the caller may act on stored API tokens: a judge for each token. A token is `hidden` when
     * its scope reaches a project the caller may not see (`*` reaches them all), `forbidden` without
     * the root permission of its type, or, among `project`'s own SDK tokens, the project's token
     * permission (project Owners, Editors in open projects). FORBIDDEN at once when the caller may
     * act on no token at all, so a Viewer is refused before anything is read; NOT_FOUND for a
     * private project the caller does not see.
     */
    async tokenAccess(
      caller: Caller,
      action: Exclude<TokenAction, 'CREATE'>,
      project?: string,
    ): Promise<(token: TokenScope) => TokenVerdict> {
      await require(caller, NONE, project === undefined ? {} : { project });
      const { principal } = caller;
      // Past `require`, only users are judged: SYSTEM, unauthenticated mode and admin tokens may do all.
      if (principal.kind !== 'user') return () => 'allowed';
      const granted =
        project !== undefined && (await allows(caller, projectTokenPermission(action), { project }))
          ? project
          : null;
      if (
        granted === null &&
        !TOKEN_TYPES.some((t) => hasRootPermission(principal, apiTokenPermission(action, t)))
      )
        throw noAccess(
          project === undefined ? apiTokenPermission(action, 'client') : projectTokenPermission(action),
        );
      const hidden = new Set(await hiddenProjects(repos, principal));
      return (token) => judgeToken(principal, action, hidden, granted, token);
    },

    /**
     * Whether the caller may issue a token reaching `projects`: a project it may not see does not
     * exist for it (NOT_FOUND), and `*` (every project, those made later included) is only for a
     * caller who sees every project today.
     */
    async requireTokenScope(caller: Caller, projects: readonly string[]): Promise<void> {
      const hidden = await hiddenProjects(repos, caller.principal);
      if (hidden.length === 0) return;
      if (projects.includes('*'))
        throw new FlagstaffError(
          'FORBIDDEN',
          'A token for all projects ("*") would reach private projects you are not a member of; list the projects it is for in "projects".',
          { permission: 'projects' },
        );
      for (const p of projects) if (hidden.includes(p)) throw notFound('project', p);
    },

    /**
     * `require`, then the actor the operation's events record. Commands that change a feature in an
     * environment requiring change requests are refused here (`requireDirectChangeAllowed`).
     */
    async permit(
      caller: Caller,
      permission: Permission,
      scope: PermissionScope = {},
      audience: Audience = 'admin',
    ): Promise<Actor> {
      await require(caller, permission, scope, audience);
      if (audience === 'admin')
        await requireDirectChangeAllowed(repos, permission, await resolveScope(scope));
      if (audience === 'admin' && caller.principal.kind !== 'system' && (await options.writesRefused?.()))
        throw new FlagstaffError(
          'MAINTENANCE',
          'Flagstaff is in maintenance mode: changes are refused until an Admin turns it off (POST /api/admin/maintenance with {"enabled": false}). SDKs and reads are served as usual.',
        );
      return caller.actor;
    },

    /**
     * Refuses a direct change where change requests are required, for commands that check their
     * permissions without `permit` (imports judge every permission first, to list what is missing).
     */
    requireDirectChange: (permission: Permission, scope: PermissionScope): Promise<void> =>
      resolveScope(scope).then((resolved) => requireDirectChangeAllowed(repos, permission, resolved)),

    /**
     * The id of the signed-in user the caller is (a session or personal token); FORBIDDEN for API
     * tokens and every other caller: what a user owns (personal tokens, a password) is theirs alone.
     */
    requireUser(caller: Caller): number {
      const { principal } = caller;
      if (principal.kind === 'user') return principal.userId;
      throw new FlagstaffError(
        'FORBIDDEN',
        'This belongs to a signed-in user; sign in (or use a personal access token) to use it.',
      );
    },

    /** What the caller may do, as GET /api/admin/user lists it. */
    permissionsOf: (caller: Caller): Promise<PermissionGrant[]> => permissionsOf(repos, caller.principal),

    /** Which projects the caller may see (private projects hide from non-members). */
    visibleProjects: (caller: Caller): Promise<ProjectVisibility> =>
      projectVisibility(repos, caller.principal),

    /** The existing projects the caller may not see, for filters that leave them out. */
    hiddenProjects: (caller: Caller): Promise<string[]> => hiddenProjects(repos, caller.principal),

    /** Whether the caller may see one project. */
    canSeeProject: (caller: Caller, project: Parameters<typeof canSeeProject>[2]): Promise<boolean> =>
      canSeeProject(repos, caller.principal, project),
  };
}

export type Policy = ReturnType<typeof createPolicy>;
