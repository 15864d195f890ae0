// The policy's verdicts over every combination the admin API meets: root role × project role ×
// project mode × how the caller signed in × permission. Expectations come from `expected` below,
// written from the contract (shared/spec), docs/api.md ("Private projects") and the role
// descriptions, never from the policy itself; a mismatch lists every combination that differs.
import { describe, expect, it } from 'vitest';
import type { ApiTokenType } from '../domain/api-token.js';
import type { Project, ProjectMode } from '../domain/project.js';
import { ROLES } from '../domain/user.js';
import { FlagstaffError } from '../errors.js';
import type { ReadRepositories } from '../ports/store.js';
import { callerOf } from './caller.js';
import {
  ENVIRONMENT_PERMISSIONS,
  NONE,
  type Permission,
  PROJECT_PERMISSIONS,
  ROOT_PERMISSIONS,
} from './permissions.js';
import { createPolicy, type PermissionScope } from './policy.js';
import { type Principal, principalOfUser } from './principal.js';

type RootRole = 'Admin' | 'Editor' | 'Viewer' | 'none';
type ProjectRole = 'Owner' | 'Member' | 'custom' | 'none';
type SignIn = 'session' | 'personal access token' | 'client' | 'frontend' | 'admin' | 'no credentials';
type Verdict = 'allowed' | 'FORBIDDEN' | 'NOT_FOUND' | 'UNAUTHENTICATED';

const ROOT_ROLES: RootRole[] = ['Admin', 'Editor', 'Viewer', 'none'];
const PROJECT_ROLES: ProjectRole[] = ['Owner', 'Member', 'custom', 'none'];
const MODES: ProjectMode[] = ['open', 'protected', 'private'];
const SIGN_INS: SignIn[] = [
  'session',
  'personal access token',
  'client',
  'frontend',
  'admin',
  'no credentials',
];
const PERMISSIONS: Permission[] = [
  NONE,
  ...ROOT_PERMISSIONS,
  ...PROJECT_PERMISSIONS,
  ...ENVIRONMENT_PERMISSIONS,
];
/** A custom project role: stored like any role, but Flagstaff gives unknown roles no permissions. */
const CUSTOM_ROLE_ID = 100;
/** A custom root role (any id but the three built-in ones) acts as a Viewer. */
const CUSTOM_ROOT_ROLE_ID = 42;
const USER_ID = 7;
const ENVIRONMENT = 'production';

// ---- what the contract says ------------------------------------------------------------------

const isRoot = (p: Permission) => (ROOT_PERMISSIONS as readonly string[]).includes(p);
const isEnvironment = (p: Permission) => (ENVIRONMENT_PERMISSIONS as readonly string[]).includes(p);

/** What a project role grants in its project (domain/user.ts role descriptions, reference roles). */
function projectRoleGrants(role: ProjectRole, permission: Permission): boolean {
  switch (role) {
    case 'Owner': // "full control over the project"
      return !isRoot(permission);
    case 'Member': // "view, create, and update feature flags": features and their configuration, no review
      return (
        [
          'CREATE_FEATURE',
          'UPDATE_FEATURE',
          'DELETE_FEATURE',
          'UPDATE_FEATURE_DEPENDENCY',
          'CREATE_FEATURE_STRATEGY',
          'UPDATE_FEATURE_STRATEGY',
          'DELETE_FEATURE_STRATEGY',
          'UPDATE_FEATURE_ENVIRONMENT',
          'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
        ] as string[]
      ).includes(permission);
    default:
      return false;
  }
}

interface Case {
  rootRole: RootRole;
  projectRole: ProjectRole;
  mode: ProjectMode;
  signIn: SignIn;
  /** The token's project scope (tokens only): every project, or exactly the one asked about. */
  tokenProjects: '*' | 'this' | 'other';
  permission: Permission;
  /** How the operation names its scope: a root operation (none), its project, or a feature in it. */
  addressed: 'root' | 'project' | 'feature';
}

/** The verdict the contract gives for an admin-API operation. */
function expected(c: Case): Verdict {
  if (c.signIn === 'no credentials') return 'UNAUTHENTICATED';
  // Client tokens reach only the client API, frontend tokens only the frontend API.
  if (c.signIn === 'client' || c.signIn === 'frontend') return 'FORBIDDEN';
  // Admin tokens may do everything on the admin API, private projects included.
  if (c.signIn === 'admin') return 'allowed';
  // A user, by session or by a personal access token (which acts as its user).
  const inProject = c.addressed !== 'root';
  const member = c.projectRole !== 'none';
  if (c.rootRole === 'Admin') return 'allowed';
  // A private project a user holds no role in does not exist for them, for reads and writes alike.
  if (inProject && c.mode === 'private' && !member) return 'NOT_FOUND';
  if (c.permission === NONE) return 'allowed';
  if (isRoot(c.permission)) {
    // Editors hold the root permissions but ADMIN and addons; Viewers (and custom roles) none.
    if (c.rootRole !== 'Editor') return 'FORBIDDEN';
    return c.permission === 'ADMIN' || c.permission.endsWith('_ADDON') ? 'FORBIDDEN' : 'allowed';
  }
  // Project and environment permissions: Editors in open projects, otherwise the project role.
  if (!inProject) return c.rootRole === 'Editor' ? 'allowed' : 'FORBIDDEN';
  if (c.rootRole === 'Editor' && c.mode === 'open') return 'allowed';
  return projectRoleGrants(c.projectRole, c.permission) ? 'allowed' : 'FORBIDDEN';
}

// ---- the world the policy reads --------------------------------------------------------------

const projectId = (mode: ProjectMode) => `p-${mode}`;
const featureName = (mode: ProjectMode) => `f-${mode}`;

const project = (mode: ProjectMode): Project => ({
  id: projectId(mode),
  name: projectId(mode),
  description: null,
  mode,
  defaultStickiness: 'default',
  featureLimit: null,
  featureNaming: { pattern: null, example: null, description: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
});

const roleId = (role: ProjectRole): number | null =>
  role === 'Owner'
    ? ROLES.Owner.id
    : role === 'Member'
      ? ROLES.Member.id
      : role === 'custom'
        ? CUSTOM_ROLE_ID
        : null;

/**
 * The reads the policy makes, over three projects (one per mode) and one feature in each. The
 * user's role is given through a group for the custom role, directly otherwise, so both paths count.
 */
function reposFor(projectRole: ProjectRole): ReadRepositories {
  const projects = MODES.map(project);
  const id = roleId(projectRole);
  const viaGroup = projectRole === 'custom';
  const assignments =
    id === null
      ? []
      : projects.map((p) => ({
          projectId: p.id,
          roleId: id,
          userId: viaGroup ? null : USER_ID,
          groupId: viaGroup ? 3 : null,
          createdAt: p.createdAt,
        }));
  const repos = {
    projects: {
      list: async () => projects,
      get: async (pid: string) => projects.find((p) => p.id === pid) ?? null,
    },
    features: {
      get: async (name: string) => {
        const mode = MODES.find((m) => featureName(m) === name);
        return mode ? { name, project: projectId(mode) } : null;
      },
    },
    groups: { groupsOf: async (userId: number) => (userId === USER_ID && viaGroup ? [3] : []) },
    projectAccess: {
      list: async (pid?: string) => assignments.filter((a) => pid === undefined || a.projectId === pid),
      forUser: async (userId: number, groupIds: readonly number[]) =>
        assignments.filter(
          (a) => a.userId === userId || (a.groupId !== null && groupIds.includes(a.groupId)),
        ),
    },
    environments: {
      listForProject: async (pid: string) => [
        { projectId: pid, environment: ENVIRONMENT, defaultStrategy: null },
      ],
    },
  };
  return repos as unknown as ReadRepositories;
}

function principalFor(c: Pick<Case, 'rootRole' | 'signIn' | 'tokenProjects' | 'mode'>): Principal {
  switch (c.signIn) {
    case 'session':
    case 'personal access token': {
      // Both sign-ins build the user's principal the same way (session-service, access-service).
      const rootRole =
        c.rootRole === 'none' ? CUSTOM_ROOT_ROLE_ID : ROLES[c.rootRole as 'Admin' | 'Editor' | 'Viewer'].id;
      return principalOfUser({ id: USER_ID, email: 'u@example.com', username: null, rootRole });
    }
    case 'no credentials':
      return { kind: 'anonymous', name: 'anonymous' };
    default:
      return {
        kind: 'api-token',
        tokenType: c.signIn as ApiTokenType,
        name: `${c.signIn}-token`,
        secretHash: 'hash',
        projects:
          c.tokenProjects === '*' ? ['*'] : [c.tokenProjects === 'this' ? projectId(c.mode) : 'elsewhere'],
        environment: '*',
      };
  }
}

function scopeOf(c: Case): PermissionScope {
  const environment = isEnvironment(c.permission) ? ENVIRONMENT : undefined;
  if (c.addressed === 'root') return { environment };
  if (c.addressed === 'project') return { project: projectId(c.mode), environment };
  return { feature: featureName(c.mode), environment };
}

async function verdict(repos: ReadRepositories, c: Case): Promise<Verdict> {
  try {
    await createPolicy(repos).require(callerOf(principalFor(c)), c.permission, scopeOf(c));
    return 'allowed';
  } catch (error) {
    if (error instanceof FlagstaffError) return error.code as Verdict;
    throw error;
  }
}

/** Every case of one principal (sign-in, root role, project role) in one project mode. */
function casesOf(signIn: SignIn, rootRole: RootRole, projectRole: ProjectRole, mode: ProjectMode): Case[] {
  const tokenScopes: Case['tokenProjects'][] =
    signIn === 'client' || signIn === 'frontend' || signIn === 'admin' ? ['*', 'this', 'other'] : ['*'];
  const cases: Case[] = [];
  for (const tokenProjects of tokenScopes)
    for (const permission of PERMISSIONS)
      for (const addressed of ['root', 'project', 'feature'] as const) {
        // Root permissions are asked without a project; the rest in the project (or of a feature in it).
        if (isRoot(permission) && addressed !== 'root') continue;
        cases.push({ rootRole, projectRole, mode, signIn, tokenProjects, permission, addressed });
      }
  return cases;
}

const describeCase = (c: Case) =>
  `${c.permission} ${c.addressed === 'root' ? '(no project)' : `(by ${c.addressed})`}${
    c.signIn === 'client' || c.signIn === 'frontend' || c.signIn === 'admin'
      ? ` token for ${c.tokenProjects}`
      : ''
  }`;

describe('policy table: root role × project role × project mode × sign-in × permission', () => {
  for (const signIn of SIGN_INS)
    for (const rootRole of ROOT_ROLES)
      for (const projectRole of PROJECT_ROLES)
        for (const mode of MODES) {
          // Tokens and anonymous callers have no roles: one row each, not sixteen.
          const user = signIn === 'session' || signIn === 'personal access token';
          if (!user && (rootRole !== 'Admin' || projectRole !== 'none')) continue;
          const who = user ? `${signIn}, root ${rootRole}, project role ${projectRole}` : signIn;
          it(`${who}, ${mode} project`, async () => {
            const repos = reposFor(user ? projectRole : 'none');
            const wrong: string[] = [];
            for (const c of casesOf(signIn, rootRole, projectRole, mode)) {
              const got = await verdict(repos, c);
              if (got !== expected(c)) wrong.push(`${describeCase(c)}: expected ${expected(c)}, got ${got}`);
            }
            expect(wrong).toEqual([]);
          });
        }
});

describe('policy table: SDK tokens on their own API', () => {
  const cases = (['client', 'frontend'] as const).flatMap((tokenType) =>
    (['*', 'this', 'other'] as const).flatMap((tokenProjects) =>
      (['*', ENVIRONMENT, 'development'] as const).map((environment) => ({
        tokenType,
        tokenProjects,
        environment,
      })),
    ),
  );
  it.each(cases)('$tokenType token for project $tokenProjects, environment $environment', async (t) => {
    const repos = reposFor('none');
    for (const mode of MODES) {
      const principal: Principal = {
        kind: 'api-token',
        tokenType: t.tokenType,
        name: 'sdk',
        secretHash: 'hash',
        projects:
          t.tokenProjects === '*' ? ['*'] : [t.tokenProjects === 'this' ? projectId(mode) : 'elsewhere'],
        environment: t.environment,
      };
      const reaches = t.tokenProjects !== 'other' && (t.environment === '*' || t.environment === ENVIRONMENT);
      const policy = createPolicy(repos);
      const caller = callerOf(principal);
      const scope = { project: projectId(mode), environment: ENVIRONMENT };
      // The admin API refuses it (as a question: not allowed).
      await expect(policy.allows(caller, NONE, scope)).resolves.toBe(false);
      // Its own family: allowed exactly where the token's scope reaches (project modes do not matter).
      const own = policy.require(caller, NONE, scope, t.tokenType);
      if (reaches) await expect(own).resolves.toBeUndefined();
      else await expect(own).rejects.toMatchObject({ code: 'FORBIDDEN' });
      // The other SDK family: refused whatever the scope.
      const other = t.tokenType === 'client' ? 'frontend' : 'client';
      await expect(policy.require(caller, NONE, scope, other)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('public operations admit anyone; SYSTEM and unauthenticated mode may do everything', async () => {
    const policy = createPolicy(reposFor('none'));
    const anonymous = callerOf({ kind: 'anonymous', name: 'anonymous' });
    await expect(policy.require(anonymous, 'ADMIN', {}, 'public')).resolves.toBeUndefined();
    for (const principal of [
      { kind: 'system', name: 'system' },
      { kind: 'anonymous-admin', name: 'admin' },
    ] as const)
      for (const mode of MODES)
        for (const permission of PERMISSIONS)
          await expect(
            policy.require(callerOf(principal), permission, {
              project: projectId(mode),
              environment: ENVIRONMENT,
            }),
          ).resolves.toBeUndefined();
  });
});

describe('policy table: what GET /api/admin/user lists agrees with the verdicts', () => {
  for (const rootRole of ROOT_ROLES)
    for (const projectRole of PROJECT_ROLES)
      it(`root ${rootRole}, project role ${projectRole}`, async () => {
        const repos = reposFor(projectRole);
        const principal = principalFor({ rootRole, signIn: 'session', tokenProjects: '*', mode: 'open' });
        const grants = await createPolicy(repos).permissionsOf(callerOf(principal));
        const lists = (permission: Permission, project?: string, environment?: string) =>
          grants.some(
            (g) =>
              g.permission === 'ADMIN' ||
              (g.permission === permission && g.project === project && g.environment === environment),
          );
        const wrong: string[] = [];
        for (const mode of MODES)
          for (const permission of PERMISSIONS) {
            if (permission === NONE) continue;
            const root = isRoot(permission);
            const c: Case = {
              rootRole,
              projectRole,
              mode,
              signIn: 'session',
              tokenProjects: '*',
              permission,
              addressed: root ? 'root' : 'project',
            };
            const listed = root
              ? lists(permission)
              : lists(permission, projectId(mode), isEnvironment(permission) ? ENVIRONMENT : undefined);
            if (listed !== (expected(c) === 'allowed'))
              wrong.push(`${permission} in ${mode}: listed ${listed}, expected ${expected(c)}`);
          }
        expect(wrong).toEqual([]);
      });
});
