import type { Project } from '../domain/project.js';
import type { ProjectRoleAssignment } from '../domain/user.js';
import type { ReadRepositories } from '../ports/store.js';
import { ALL_PROJECTS, type Principal, type ProjectVisibility, tokenReachesProject } from './principal.js';

/** Principals that see every project whatever its mode: Admins, admin tokens, unauthenticated mode. */
const seesEverything = (principal: Principal): boolean =>
  principal.kind === 'anonymous-admin' ||
  principal.kind === 'system' ||
  (principal.kind === 'api-token' && principal.tokenType === 'admin') ||
  (principal.kind === 'user' && principal.rootRole === 'Admin');

/** The role assignments that apply to a user, directly or through groups, across projects. */
export async function assignmentsOf(
  repos: ReadRepositories,
  userId: number,
): Promise<ProjectRoleAssignment[]> {
  return repos.projectAccess.forUser(userId, await repos.groups.groupsOf(userId));
}

/**
 * Which projects a principal may see. Private projects are visible only to root Admins, admin
 * tokens and members (a user or group role in the project), as in the reference; other tokens see
 * the projects of their scope; `SYSTEM` sees everything. `loaded` spares a
 * second read when the caller already holds every project.
 */
export async function projectVisibility(
  repos: ReadRepositories,
  principal: Principal,
  loaded?: readonly Project[],
): Promise<ProjectVisibility> {
  if (seesEverything(principal)) return ALL_PROJECTS;
  const projects = loaded ?? (await repos.projects.list());
  if (principal.kind === 'api-token')
    return {
      all: false,
      projects: new Set(
        projects.filter((p) => tokenReachesProject(principal.projects, p.id)).map((p) => p.id),
      ),
    };
  if (principal.kind !== 'user' || !projects.some((p) => p.mode === 'private')) return ALL_PROJECTS;
  const member = new Set((await assignmentsOf(repos, principal.userId)).map((a) => a.projectId));
  return {
    all: false,
    projects: new Set(projects.filter((p) => p.mode !== 'private' || member.has(p.id)).map((p) => p.id)),
  };
}

/** Whether the principal may see one project (the single-read form of `projectVisibility`). */
export async function canSeeProject(
  repos: ReadRepositories,
  principal: Principal,
  project: Project,
): Promise<boolean> {
  if (seesEverything(principal)) return true;
  if (principal.kind === 'api-token') return tokenReachesProject(principal.projects, project.id);
  if (principal.kind !== 'user' || project.mode !== 'private') return true;
  return (await assignmentsOf(repos, principal.userId)).some((a) => a.projectId === project.id);
}

/**
 * The ids of existing projects the principal may not see: for filters that leave projects out
 * ("not in hidden") rather than keep the visible ones, so rows without a project stay. Usually
 * empty (Admins, no private projects) or a handful of private projects.
 */
export async function hiddenProjects(repos: ReadRepositories, principal: Principal): Promise<string[]> {
  if (seesEverything(principal)) return [];
  const projects = await repos.projects.list();
  const visibility = await projectVisibility(repos, principal, projects);
  if (visibility.all) return [];
  return projects.filter((p) => !visibility.projects.has(p.id)).map((p) => p.id);
}
