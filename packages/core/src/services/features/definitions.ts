import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { contextFieldStrategiesSchema } from '../../domain/context-field.js';
import type {
  FeatureTypeView,
  featureTypeListSchema,
  StrategyDefinition,
  strategyDefinitionListSchema,
  strategyDefinitionSchema,
} from '../../domain/strategy-definition.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { runnerOf } from '../service-runner.js';
import {
  createStrategyDefinition,
  deleteStrategyDefinition,
  deprecateStrategyDefinition,
  getStrategyDefinition,
  listFeatureTypes,
  listStrategyDefinitions,
  reactivateStrategyDefinition,
  setFeatureTypeLifetime,
  strategiesUsingContextField,
  updateStrategyDefinition,
} from './definition-operations.js';

/** The body that defines a custom strategy, before defaults. */
export type StrategyDefinitionInput = z.input<typeof strategyDefinitionSchema>;

/**
 * Strategy definitions (`/api/admin/strategies`): the built-ins, read-only but deprecatable, and
 * custom strategies with their parameter definitions for the strategy editor; and feature types with
 * their expected lifetimes, which decide when a feature is potentially stale. Typed wrappers over the
 * operations in `definition-operations.ts` (which HTTP serves too).
 */
export function createDefinitionService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    strategies: {
      list: (caller: Caller): Promise<z.infer<typeof strategyDefinitionListSchema>> =>
        run(listStrategyDefinitions, caller, {}),
      get: (caller: Caller, name: string): Promise<StrategyDefinition> =>
        run(getStrategyDefinition, caller, { name }),
      /** A custom strategy (strategy-created); CONFLICT when the name is taken. */
      create: (caller: Caller, input: StrategyDefinitionInput): Promise<StrategyDefinition> =>
        run(createStrategyDefinition, caller, input),
      /** Replaces a custom strategy's description and parameters (strategy-updated); built-ins refuse. */
      update: (
        caller: Caller,
        name: string,
        input: Omit<StrategyDefinitionInput, 'name'>,
      ): Promise<StrategyDefinition> => run(updateStrategyDefinition, caller, { ...input, name }),
      /** Deletes a custom strategy no feature uses (strategy-deleted). */
      delete: (caller: Caller, name: string): Promise<void> =>
        run(deleteStrategyDefinition, caller, { name }),
      /** GET /api/admin/context/:contextField/strategies: feature strategies constrained on the field. */
      usingContextField: (
        caller: Caller,
        field: string,
      ): Promise<z.infer<typeof contextFieldStrategiesSchema>> =>
        run(strategiesUsingContextField, caller, { field }),
      deprecate: (caller: Caller, name: string): Promise<void> =>
        run(deprecateStrategyDefinition, caller, { name }),
      reactivate: (caller: Caller, name: string): Promise<void> =>
        run(reactivateStrategyDefinition, caller, { name }),
    },

    featureTypes: {
      list: (caller: Caller): Promise<z.infer<typeof featureTypeListSchema>> =>
        run(listFeatureTypes, caller, {}),
      /** Sets the expected lifetime of a type (null or 0: never potentially stale); feature-type-updated. */
      setLifetime: (
        caller: Caller,
        id: string,
        input: { lifetimeDays: number | null },
      ): Promise<FeatureTypeView> => run(setFeatureTypeLifetime, caller, { ...input, id }),
    },
  };
}

export type DefinitionService = ReturnType<typeof createDefinitionService>;
