import { type Caller, userIdOf } from '../../auth/caller.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import type { ConstraintInput } from '../../domain/constraint.js';
import type {
  CreateFeatureInput,
  FeatureEnvironmentView,
  FeatureView,
  UpdateFeatureInput,
} from '../../domain/feature.js';
import type { LifecycleStageView } from '../../domain/feature-view.js';
import type { PatchOperation } from '../../domain/strategy.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { requireProject } from '../projects/project-service.js';
import { runnerOf } from '../service-runner.js';
import { validateConstraint } from './constraint-operations.js';
import { listParentVariants } from './dependency-operations.js';
import {
  archiveFeaturesOperation,
  deleteArchivedFeatures,
  reviveFeatures,
  validateArchive,
} from './feature-archive-operations.js';
import { cloneFeature } from './feature-clone-operations.js';
import {
  completeFeature,
  countFeatureLifecycles,
  getFeatureLifecycle,
  uncompleteFeature,
} from './feature-lifecycle-operations.js';
import {
  createFeature,
  patchFeature,
  setFeatureFavorite,
  setFeaturesStale,
  updateFeature,
} from './feature-operations.js';
import {
  getFeature,
  getFeatureEnvironment,
  listArchivedFeatures,
  listFeatures,
  validateFeatureName,
} from './feature-read-operations.js';
import { featureViewPages } from './feature-view-pages.js';

export type { LifecycleStageView } from '../../domain/feature-view.js';

/**
 * A feature body as embedders pass it: feature types are stored as strings, so `type` may be any
 * string here (one that is not a known type is a VALIDATION error naming "type").
 */
type WithAnyType<T> = Omit<T, 'type'> & { type?: string | undefined };

/**
 * Features for in-process callers: typed wrappers over the operations of `feature-operations.ts`,
 * `feature-read-operations.ts` and `feature-archive-operations.ts` (which HTTP serves too).
 */
export function createFeatureService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    /** One feature of a project, as the API shows it, with its links. */
    get: (caller: Caller, project: string, name: string): Promise<FeatureView> =>
      run(getFeature, caller, { project, feature: name }),

    /** Live features of a project (or every project) the caller may see; `favorite` is the caller's. */
    list: async (caller: Caller, project?: string): Promise<FeatureView[]> =>
      (await run(listFeatures, caller, { project })).features,

    /**
     * `list` of one project, a page of views at a time (see `featureViewPages`): what
     * `GET /projects/:id/features` streams. Refusals (policy, unknown project) come when this resolves.
     */
    async listPages(caller: Caller, project: string): Promise<AsyncIterable<FeatureView[]>> {
      await deps.policy.require(caller, 'NONE', { project });
      await requireProject(deps.store, project);
      const visibility = await projectVisibility(deps.store, caller.principal);
      return featureViewPages(deps.store, project, visibility, userIdOf(caller));
    },

    /** Archived features of a project (or every project) the caller may see. */
    listArchived: async (caller: Caller, project?: string): Promise<FeatureView[]> =>
      (await run(listArchivedFeatures, caller, { project })).features,

    /** VALIDATION for a name `create` would refuse, CONFLICT when a feature has it. */
    validateName: (caller: Caller, input: { name: string; projectId?: string | null }): Promise<void> =>
      run(validateFeatureName, caller, input),

    /** Creates a feature, enforcing the project's naming pattern and feature limit (feature-created). */
    create: (caller: Caller, project: string, input: WithAnyType<CreateFeatureInput>): Promise<FeatureView> =>
      run.unknown(createFeature, caller, { ...input, project }),

    /** PUT: changes only the given properties (feature-metadata-updated, and stale/archive events). */
    update: (
      caller: Caller,
      project: string,
      name: string,
      input: WithAnyType<UpdateFeatureInput>,
    ): Promise<FeatureView> =>
      run.unknown(updateFeature, caller, { ...input, projectId: project, featureName: name }),

    /** PATCH: JSON-patch operations on description, type, stale, archived, impressionData. */
    patch: (
      caller: Caller,
      project: string,
      name: string,
      operations: PatchOperation[],
    ): Promise<FeatureView> => run(patchFeature, caller, { project, feature: name, operations }),

    /** Moves features to the archive; refused when a parent's children would stay live. */
    archive: (caller: Caller, project: string, names: readonly string[]): Promise<void> =>
      run(archiveFeaturesOperation, caller, { project, features: [...names] }),

    /** Which of the features would leave children live, and whether dependencies go with them. */
    validateArchive: (caller: Caller, project: string, names: readonly string[]) =>
      run(validateArchive, caller, { project, features: [...names] }),

    /** Brings archived features back; without a project, wherever they are. */
    revive: (caller: Caller, project: string | null, names: readonly string[]): Promise<void> =>
      run(reviveFeatures, caller, { project, features: [...names] }),

    /** Deletes archived features for good; without a project, wherever they are. */
    deleteArchived: (caller: Caller, project: string | null, names: readonly string[]): Promise<void> =>
      run(deleteArchivedFeatures, caller, { project, features: [...names] }),

    /** Marks features stale or not. */
    setStale: (caller: Caller, project: string, names: readonly string[], stale: boolean): Promise<void> =>
      run(setFeaturesStale, caller, { project, features: [...names], stale }),

    /** Marks the feature as a favorite of the calling user, or not. */
    setFavorite: (caller: Caller, project: string, name: string, favorite: boolean): Promise<void> =>
      run(setFeatureFavorite, caller, { project, feature: name, favorite }),
  };
}

export type FeatureService = ReturnType<typeof createFeatureService>;

/**
 * The reference's feature operations beyond the contract, as embedders have called them: one
 * environment of a feature, cloning, parent variants, the lifecycle and checking a constraint.
 * Each is a typed wrapper over the operation of the aggregate it serves.
 */
export function createFeatureExtras(run: OperationRunner) {
  return {
    /** The feature in one environment. */
    environment: (
      caller: Caller,
      project: string,
      name: string,
      environment: string,
    ): Promise<FeatureEnvironmentView> =>
      run(getFeatureEnvironment, caller, { project, feature: name, environment }),
    /** A new feature with the source's configuration, in one transaction. */
    clone: (
      caller: Caller,
      project: string,
      name: string,
      input: { name: string; replaceGroupId?: boolean },
    ): Promise<FeatureView> => run(cloneFeature, caller, { ...input, project, feature: name }),
    /** The variant names a child's dependency on `parent` may require. */
    parentVariants: (caller: Caller, project: string, parent: string): Promise<string[]> =>
      run(listParentVariants, caller, { project, feature: parent }),
    /** The stages so far (creation, then the current one). */
    lifecycle: (caller: Caller, project: string, name: string): Promise<LifecycleStageView[]> =>
      run(getFeatureLifecycle, caller, { project, feature: name }),
    /** The feature's work is done (kept or discarded). */
    complete: (
      caller: Caller,
      project: string,
      name: string,
      input: { status: 'kept' | 'discarded'; statusValue?: string },
    ): Promise<void> => run(completeFeature, caller, { ...input, project, feature: name }),
    /** Back to live. */
    uncomplete: (caller: Caller, project: string, name: string): Promise<void> =>
      run(uncompleteFeature, caller, { project, feature: name }),
    /** Features per stage (archived included) across visible projects. */
    lifecycleCount: (caller: Caller): Promise<Record<string, number>> =>
      run(countFeatureLifecycles, caller, {}),
    /** Nothing when the constraint is valid, VALIDATION naming the fault. */
    validateConstraint: (caller: Caller, input: ConstraintInput): Promise<void> =>
      run(validateConstraint, caller, input),
  };
}

export type FeatureExtras = ReturnType<typeof createFeatureExtras>;
