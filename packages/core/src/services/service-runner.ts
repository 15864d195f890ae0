import type { OperationDeps } from '../operations/define-operation.js';
import { createOperationRunner, type OperationRunner } from '../operations/run-operation.js';
import type { ServiceDeps } from './deps.js';

/**
 * Stands in for a dependency a nested runner does not have: any use is a programming error (an
 * operation that needs it was run inside another command), reported as such, never a silent no-op.
 */
const absent = <T>(what: string): T =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`${what} is not available to an operation run inside another command's transaction`);
      },
    },
  ) as T;

/**
 * A runner for facades built over other deps (an import's, a copy's or a signal action's
 * transaction): the same operations, parsed and judged the same way. Those commands change
 * features, strategies, tags and context fields only; token secrets, addons, instance settings and
 * the evaluators are not theirs to reach.
 */
export const runnerOf = (deps: ServiceDeps): OperationRunner =>
  createOperationRunner({
    ...deps,
    tokenSecrets: null,
    instance: absent<OperationDeps['instance']>('the instance state'),
    addons: absent<OperationDeps['addons']>('the addon runtime'),
    evaluators: absent<OperationDeps['evaluators']>('the evaluator cache'),
    resetLinks: absent<OperationDeps['resetLinks']>('the reset links'),
    sessions: absent<OperationDeps['sessions']>('the session runtime'),
  });
