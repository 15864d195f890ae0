import type { ApiTokenType } from '../domain/api-token.js';
import { apiTokenPermission, noAccess, type Permission } from './permissions.js';
import { hasRootPermission, type Principal } from './principal.js';

/** What the policy needs to know of a stored API token to judge access to it. */
export interface TokenScope {
  type: ApiTokenType;
  projects: readonly string[];
}

/** What a caller may do to one stored token. */
export type TokenVerdict = 'allowed' | 'forbidden' | 'hidden';

export type TokenAction = 'CREATE' | 'READ' | 'UPDATE' | 'DELETE';

/** The project-level permission that stands for an action on a project's own SDK tokens. */
export const projectTokenPermission = (action: TokenAction): Permission =>
  action === 'UPDATE' ? 'UPDATE_PROJECT' : `${action}_PROJECT_API_TOKEN`;

/** Whether a token is scoped to exactly this project (and is an SDK token, which projects manage). */
export const isProjectToken = (token: TokenScope, project: string): boolean =>
  token.type !== 'admin' && token.projects.length === 1 && token.projects[0] === project;

/**
 * The pure part of the policy's token decisions: a token is hidden when its scope reaches a project
 * the caller may not see (`*` reaches every project, so one hidden project hides it), forbidden
 * when the caller holds neither the type's root permission nor, for a token of `project` itself,
 * the project's token permission.
 */
export function judgeToken(
  principal: Principal,
  action: TokenAction,
  hidden: ReadonlySet<string>,
  grantedInProject: string | null,
  token: TokenScope,
): TokenVerdict {
  const reachesHidden = token.projects.includes('*')
    ? hidden.size > 0
    : token.projects.some((p) => hidden.has(p));
  if (reachesHidden) return 'hidden';
  if (hasRootPermission(principal, apiTokenPermission(action, token.type))) return 'allowed';
  return grantedInProject !== null && isProjectToken(token, grantedInProject) ? 'allowed' : 'forbidden';
}

/** FORBIDDEN naming what the action needs on this token. */
export const tokenNoAccess = (action: TokenAction, token: TokenScope, project: string | null) =>
  noAccess(
    project !== null && isProjectToken(token, project)
      ? projectTokenPermission(action)
      : apiTokenPermission(action, token.type),
  );
