import { FlagstaffError } from '../errors.js';
import type { ReadRepositories } from '../ports/store.js';
import type { Permission } from './permissions.js';

/**
 * Commands that change a feature's configuration in one environment; without an environment in
 * their scope (variants set everywhere at once) they change every environment of the project.
 */
const GUARDED_IN_ENVIRONMENT: ReadonlySet<Permission> = new Set<Permission>([
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
]);

/** Feature-wide commands (archiving, dependencies): guarded when any environment of the project is. */
const GUARDED_IN_PROJECT: ReadonlySet<Permission> = new Set<Permission>([
  'DELETE_FEATURE',
  'UPDATE_FEATURE_DEPENDENCY',
]);

export interface GuardScope {
  project?: string | undefined;
  environment?: string | undefined;
}

const refusal = (project: string, environment: string, permission: Permission): FlagstaffError =>
  new FlagstaffError(
    'FORBIDDEN',
    `Change requests are required in the "${environment}" environment of project "${project}": this change needs a change request (POST /api/admin/projects/${project}/environments/${environment}/change-requests), approved before it is applied.`,
    { permission, environment, changeRequestRequired: true },
  );

/**
 * The one rule that keeps direct changes out of environments that require change requests. The
 * policy asks it for every command it permits, so every caller — the admin UI, API tokens, the CLI,
 * imports, signals — meets it; applying an approved request runs the commands without asking it.
 * The SDK APIs never change configuration and are not concerned.
 */
export async function requireDirectChangeAllowed(
  repos: ReadRepositories,
  permission: Permission,
  scope: GuardScope,
): Promise<void> {
  const inEnvironment = GUARDED_IN_ENVIRONMENT.has(permission);
  if ((!inEnvironment && !GUARDED_IN_PROJECT.has(permission)) || scope.project === undefined) return;
  const required = (await repos.changeRequests.listSettings(scope.project)).filter((s) => s.enabled);
  if (required.length === 0) return;
  if (inEnvironment && scope.environment !== undefined) {
    if (required.some((s) => s.environment === scope.environment))
      throw refusal(scope.project, scope.environment, permission);
    return;
  }
  const linked = new Set((await repos.environments.listForProject(scope.project)).map((l) => l.environment));
  const guarded = required.find((s) => linked.has(s.environment));
  if (guarded) throw refusal(scope.project, guarded.environment, permission);
}

/** Whether a project environment requires change requests, and the approvals it needs. */
export async function changeRequestSettingOf(
  repos: ReadRepositories,
  project: string,
  environment: string,
): Promise<{ enabled: boolean; requiredApprovals: number }> {
  const found = (await repos.changeRequests.listSettings(project)).find((s) => s.environment === environment);
  return { enabled: found?.enabled ?? false, requiredApprovals: found?.requiredApprovals ?? 1 };
}
