import type { Project, ProjectEnvironmentRecord } from '../../domain/project.js';
import { notFound } from '../../errors.js';
import type { LinkedEnvironment } from '../../ports/project-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireEnvironment } from './environment-operations.js';

/** Loads a project or throws NOT_FOUND. */
export async function requireProject(repos: ReadRepositories, id: string): Promise<Project> {
  const project = await repos.projects.get(id);
  if (!project) throw notFound('project', id);
  return project;
}

/** Loads the project's link to an environment or throws NOT_FOUND naming both. */
export async function requireProjectEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<ProjectEnvironmentRecord> {
  return (await requireLinkedEnvironment(repos, projectId, environment)).link;
}

/** Like `requireProjectEnvironment`, also handing back the environment it loaded on the way. */
export async function requireLinkedEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<LinkedEnvironment> {
  const linked = await repos.commandReads.projectEnvironment(projectId, environment);
  return linked ?? missingProjectEnvironment(repos, projectId, environment);
}

/** The NOT_FOUND for an environment the project does not use (or the environment's own, when it does not exist). */
export async function missingProjectEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<never> {
  // One read on the common path; a second only to say which of the two is missing.
  await requireEnvironment(repos, environment);
  throw notFound(`environment in project "${projectId}"`, environment);
}
