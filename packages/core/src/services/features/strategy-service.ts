import type { Caller } from '../../auth/caller.js';
import type { FeatureStrategy, PatchOperation, StrategyConfigInput } from '../../domain/strategy.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { runnerOf } from '../service-runner.js';
import type { StrategyLocation } from './strategy-commands.js';
import {
  addStrategy,
  deleteStrategy,
  getStrategy,
  listStrategies,
  patchStrategy,
  reorderStrategies,
  updateStrategy,
} from './strategy-operations.js';

export { strategyOrderSchema } from '../../domain/strategy.js';
export {
  createStrategyCommands,
  insertStrategy,
  requireStrategy,
  type StrategyAddition,
  type StrategyCommands,
  type StrategyLocation,
} from './strategy-commands.js';

/**
 * Strategies of features in environments for in-process callers: typed wrappers over the
 * operations in `strategy-operations.ts` (which HTTP serves too).
 */
export function createStrategyService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    /** Strategies of a feature in an environment, in evaluation order. */
    list: (caller: Caller, at: StrategyLocation): Promise<FeatureStrategy[]> =>
      run(listStrategies, caller, at),
    /** One strategy, or NOT_FOUND. */
    get: (caller: Caller, at: StrategyLocation, id: string): Promise<FeatureStrategy> =>
      run(getStrategy, caller, { ...at, id }),
    /** Adds a strategy (feature-strategy-add). */
    add: (caller: Caller, at: StrategyLocation, input: StrategyConfigInput): Promise<FeatureStrategy> =>
      run(addStrategy, caller, { ...input, ...at }),
    /** Replaces a strategy's configuration (feature-strategy-update). */
    update: (
      caller: Caller,
      at: StrategyLocation,
      id: string,
      input: StrategyConfigInput,
    ): Promise<FeatureStrategy> => run(updateStrategy, caller, { ...input, ...at, id }),
    /** Applies JSON-patch operations to a strategy's configuration (feature-strategy-update). */
    patch: (
      caller: Caller,
      at: StrategyLocation,
      id: string,
      operations: PatchOperation[],
    ): Promise<FeatureStrategy> => run(patchStrategy, caller, { ...at, id, operations }),
    /** Removes a strategy (feature-strategy-remove). */
    delete: (caller: Caller, at: StrategyLocation, id: string): Promise<void> =>
      run(deleteStrategy, caller, { ...at, id }),
    /** Sets the evaluation order of strategies (strategy-order-changed). */
    reorder: (
      caller: Caller,
      at: StrategyLocation,
      order: { id: string; sortOrder: number }[],
    ): Promise<void> => run(reorderStrategies, caller, { ...at, order }),
  };
}

export type StrategyService = ReturnType<typeof createStrategyService>;
