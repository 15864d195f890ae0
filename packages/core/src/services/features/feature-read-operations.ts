import { z } from 'zod';
import { userIdOf } from '../../auth/caller.js';
import { seesProject } from '../../auth/principal.js';
import { canSeeProject, projectVisibility } from '../../auth/project-visibility.js';
import type { FeatureRecord } from '../../domain/feature.js';
import {
  featureEnvironmentPathSchema,
  featureEnvironmentViewSchema,
  featureListQuerySchema,
  featureListSchema,
  featurePathSchema,
  featureViewSchema,
} from '../../domain/feature-view.js';
import { validateFeatureNameSchema } from '../../domain/name-validation.js';
import { conflict, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireProject } from '../projects/project-service.js';
import { requireNamingPattern } from './feature-naming.js';
import { buildFeatureViews } from './feature-view.js';
import { requireFeature } from './require-feature.js';

export const featureProjectScope = (input: { project?: string | null | undefined }) => ({
  project: input.project ?? undefined,
});

/** The features whose project the caller may see. */
export async function visibleFeatures(
  repos: ReadRepositories,
  principal: Parameters<typeof projectVisibility>[1],
  features: FeatureRecord[],
): Promise<FeatureRecord[]> {
  const visibility = await projectVisibility(repos, principal);
  return visibility.all ? features : features.filter((f) => seesProject(visibility, f.project));
}

/** One feature of a project as the API shows it, with its links. */
export const getFeature = defineOperation({
  id: 'features.get',
  summary: 'Get a feature',
  kind: 'read',
  permission: 'NONE',
  scope: featureProjectScope,
  input: featurePathSchema,
  output: featureViewSchema,
  run: async ({ project, feature }, { repos, caller }) => {
    const record = await requireFeature(repos, project, feature);
    const [shown] = await buildFeatureViews(repos, [record], { userId: userIdOf(caller) });
    const links = await repos.featureLinks.listForFeature(feature);
    return { ...shown!, links: links.map(({ id, url, title }) => ({ id, url, title })) };
  },
});

/** The feature in one environment: its switch, strategies and variants. */
export const getFeatureEnvironment = defineOperation({
  id: 'features.environment',
  summary: 'A feature in one environment: switch, strategies, variants',
  kind: 'read',
  permission: 'NONE',
  scope: featureProjectScope,
  input: featureEnvironmentPathSchema,
  output: featureEnvironmentViewSchema,
  run: async ({ project, feature, environment }, { repos, caller }) => {
    const record = await requireFeature(repos, project, feature);
    const [shown] = await buildFeatureViews(repos, [record], { userId: userIdOf(caller) });
    const found = shown?.environments.find((e) => e.name === environment);
    if (!found) throw notFound('environment', environment);
    return found;
  },
});

/**
 * Live features of a project (or every project). Features of private projects the caller may not
 * see are left out; `favorite` is the calling user's.
 */
export const listFeatures = defineOperation({
  id: 'features.list',
  summary: 'List features',
  kind: 'read',
  permission: 'NONE',
  scope: featureProjectScope,
  input: featureListQuerySchema,
  output: featureListSchema,
  run: async ({ project }, { repos, caller }) => {
    if (project !== undefined) await requireProject(repos, project);
    const features = await visibleFeatures(
      repos,
      caller.principal,
      await repos.features.list({ project, archived: false }),
    );
    return {
      version: 2 as const,
      features: await buildFeatureViews(repos, features, { userId: userIdOf(caller) }),
    };
  },
});

/** Archived features of a project (or every project) the caller may see. */
export const listArchivedFeatures = defineOperation({
  id: 'features.listArchived',
  summary: 'List archived features',
  kind: 'read',
  permission: 'NONE',
  scope: featureProjectScope,
  input: featureListQuerySchema,
  output: featureListSchema,
  run: async ({ project }, { repos, caller }) => {
    if (project !== undefined) await requireProject(repos, project);
    const features = await visibleFeatures(
      repos,
      caller.principal,
      await repos.features.list({ project, archived: true }),
    );
    return { version: 2 as const, features: await buildFeatureViews(repos, features) };
  },
});

/**
 * VALIDATION for a name `create` would refuse (also by the naming pattern of `projectId` when
 * given), CONFLICT when a feature, live or archived, has it. A project the caller may not see is
 * NOT_FOUND, as if it did not exist.
 */
export const validateFeatureName = defineOperation({
  id: 'features.validateName',
  summary: 'Validate a feature name',
  kind: 'read',
  permission: 'NONE',
  input: validateFeatureNameSchema,
  output: z.void(),
  run: async ({ name, projectId }, { repos, caller }) => {
    const existing = await repos.features.get(name);
    if (existing)
      throw conflict(
        `A feature named "${name}" already exists${existing.archivedAt ? ' in the archive' : ''}.`,
        'name',
      );
    if (projectId == null) return;
    const project = await repos.projects.get(projectId);
    if (!project || !(await canSeeProject(repos, caller.principal, project)))
      throw notFound('project', projectId);
    requireNamingPattern(project, name);
  },
});

/** Every read of features, for route tables and tools. */
export const featureReadOperations = [
  getFeature,
  getFeatureEnvironment,
  listFeatures,
  listArchivedFeatures,
  validateFeatureName,
] as const;
