import type { Caller } from '../../auth/caller.js';
import type { PatchOperation } from '../../domain/strategy.js';
import type { Variant, VariantInput } from '../../domain/variant.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { runnerOf } from '../service-runner.js';
import {
  bulkDisableFeatureEnvironments,
  bulkEnableFeatureEnvironments,
  disableFeatureEnvironment,
  enableFeatureEnvironment,
  getFeatureEnvironmentVariants,
  patchFeatureEnvironmentVariants,
  setFeatureEnvironmentVariants,
  setFeatureVariants,
  setVariantsInEnvironments,
} from './feature-environment-operations.js';

export {
  createFeatureEnvironmentCommands,
  type FeatureEnvironmentCommands,
  prepareVariants,
} from './feature-environment-commands.js';

/**
 * Turning features on and off per environment, and their variants, for in-process callers: typed
 * wrappers over the operations in `feature-environment-operations.ts` (which HTTP serves too).
 */
export function createFeatureEnvironmentService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    /** Turns a feature on or off in an environment; enabling with no strategy adds the default one. */
    setEnabled: (
      caller: Caller,
      project: string,
      feature: string,
      environment: string,
      enabled: boolean,
    ): Promise<void> =>
      run(enabled ? enableFeatureEnvironment : disableFeatureEnvironment, caller, {
        project,
        feature,
        environment,
      }),

    /** Turns many features of a project on or off in one environment, all or nothing. */
    bulkSetEnabled: (
      caller: Caller,
      project: string,
      environment: string,
      enabled: boolean,
      input: { features: string[] },
    ): Promise<void> =>
      run(enabled ? bulkEnableFeatureEnvironments : bulkDisableFeatureEnvironments, caller, {
        ...input,
        project,
        environment,
      }),

    /** Variants of a feature in an environment. */
    getVariants: async (
      caller: Caller,
      project: string,
      feature: string,
      environment: string,
    ): Promise<Variant[]> =>
      (await run(getFeatureEnvironmentVariants, caller, { project, feature, environment })).variants,

    /** Replaces the variants of a feature in an environment (feature-environment-variants-updated). */
    setVariants: async (
      caller: Caller,
      project: string,
      feature: string,
      environment: string,
      variants: VariantInput[],
    ): Promise<Variant[]> =>
      (await run(setFeatureEnvironmentVariants, caller, { project, feature, environment, variants }))
        .variants,

    /** Applies JSON-patch operations to the variants of a feature in an environment. */
    patchVariants: async (
      caller: Caller,
      project: string,
      feature: string,
      environment: string,
      operations: PatchOperation[],
    ): Promise<Variant[]> =>
      (await run(patchFeatureEnvironmentVariants, caller, { project, feature, environment, operations }))
        .variants,

    /** Sets the same variants in several environments (PUT …/variants-batch). */
    setVariantsInEnvironments: async (
      caller: Caller,
      project: string,
      feature: string,
      input: { variants: VariantInput[]; environments: string[] },
    ): Promise<Variant[]> =>
      (await run(setVariantsInEnvironments, caller, { ...input, project, feature })).variants,

    /** Legacy feature-level variants: sets them, or patches them, in every environment (feature-variants-updated). */
    setFeatureVariants: async (
      caller: Caller,
      project: string,
      feature: string,
      variants: VariantInput[] | PatchOperation[],
    ): Promise<Variant[]> => (await run(setFeatureVariants, caller, { project, feature, variants })).variants,
  };
}

export type FeatureEnvironmentService = ReturnType<typeof createFeatureEnvironmentService>;
