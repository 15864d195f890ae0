import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { FeatureRecord } from '../../domain/feature.js';
import { archiveCheckSchema, archivedFeaturesSchema, featureNamesSchema } from '../../domain/feature-view.js';
import { FlagstaffError } from '../../errors.js';
import {
  defineOperation,
  type OperationDeps,
  type PermissionInput,
} from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { archiveFeatures } from './feature-archive.js';
import { featureProjectScope } from './feature-read-operations.js';
import { buildFeatureViews } from './feature-view.js';
import { requireFeatureWithTags } from './require-feature.js';

type ArchivedInput = PermissionInput<z.output<typeof archivedFeaturesSchema>>;

/** Without a project, the permission applies in each archived feature's own project: the first here… */
const archivedScope = (input: ArchivedInput) =>
  input.project ? { project: input.project } : { feature: input.features?.[0] };

/** …and the others' in the guard (a caller may hold the permission in one project and not another). */
const eachArchivedProject =
  (permission: 'UPDATE_FEATURE' | 'DELETE_FEATURE') =>
  async (
    input: z.output<typeof archivedFeaturesSchema>,
    { deps, caller }: { deps: OperationDeps; caller: Caller },
  ) => {
    if (input.project !== null) return;
    for (const feature of input.features.slice(1)) await deps.policy.require(caller, permission, { feature });
  };

/**
 * Moves features to the archive (feature-archived each); their dependencies on parents go too.
 * Refused when a parent's children would stay live (`requireNoLiveChildrenLeft`).
 */
export const archiveFeaturesOperation = defineOperation({
  id: 'features.archive',
  summary: 'Archive features',
  kind: 'write',
  permission: 'DELETE_FEATURE',
  scope: featureProjectScope,
  input: featureNamesSchema,
  output: z.void(),
  run: ({ project, features }, { deps, repos, actor }) =>
    archiveFeatures(deps, repos, actor, project, features),
});

/** Which of the features would leave children live, and whether archiving them drops dependencies. */
export const validateArchive = defineOperation({
  id: 'features.validateArchive',
  summary: 'Validate archiving features',
  kind: 'read',
  permission: 'DELETE_FEATURE',
  scope: featureProjectScope,
  input: featureNamesSchema,
  output: archiveCheckSchema,
  run: async ({ project, features }, { repos }) => {
    await requireProject(repos, project);
    const set = new Set(features);
    const children = await repos.dependencies.listByParents(features);
    const parents = new Set(children.filter((d) => !set.has(d.child)).map((d) => d.feature));
    const own = await repos.dependencies.list(features);
    return {
      parentsWithChildFeatures: [...parents].sort(),
      hasDeletedDependencies: own.length > 0 || children.length > 0,
    };
  },
});

/** Brings archived features back (feature-revived each); they return stale-free and initial. */
export const reviveFeatures = defineOperation({
  id: 'features.revive',
  summary: 'Revive archived features',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: archivedScope,
  guard: eachArchivedProject('UPDATE_FEATURE'),
  input: archivedFeaturesSchema,
  output: z.void(),
  run: async ({ project, features }, { deps, repos, actor }) => {
    const at = nowIso(deps);
    for (const name of features) {
      const { feature: before, tags } = await requireFeatureWithTags(repos, project, name, {
        archived: true,
      });
      if (before.archivedAt === null)
        throw new FlagstaffError('VALIDATION', `Feature "${name}" is not archived.`, { path: 'features' });
      const after: FeatureRecord = {
        ...before,
        archivedAt: null,
        lifecycle: { stage: 'initial', enteredStageAt: at },
      };
      await repos.features.update(after);
      await writeFeatureEvents(repos, actor, at, { feature: after, tags }, [{ type: 'feature-revived' }]);
    }
  },
});

/** Deletes archived features for good (feature-deleted, preData: the feature). */
export const deleteArchivedFeatures = defineOperation({
  id: 'features.deleteArchived',
  summary: 'Delete archived features',
  kind: 'write',
  permission: 'DELETE_FEATURE',
  scope: archivedScope,
  guard: eachArchivedProject('DELETE_FEATURE'),
  input: archivedFeaturesSchema,
  output: z.void(),
  run: async ({ project, features }, { deps, repos, actor }) => {
    const at = nowIso(deps);
    for (const name of features) {
      const found = await requireFeatureWithTags(repos, project, name, { archived: true });
      const before = found.feature;
      if (before.archivedAt === null)
        throw new FlagstaffError('CONFLICT', `Feature "${name}" must be archived before it can be deleted.`);
      const [snapshot] = await buildFeatureViews(repos, [before]);
      await writeFeatureEvents(repos, actor, at, found, [{ type: 'feature-deleted', preData: snapshot }]);
      await repos.features.delete(name);
    }
  },
});

/** Every operation of the archive, for route tables and tools. */
export const featureArchiveOperations = [
  archiveFeaturesOperation,
  validateArchive,
  reviveFeatures,
  deleteArchivedFeatures,
] as const;
