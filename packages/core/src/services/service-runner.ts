import { createOperationRunner, type OperationRunner } from '../operations/run-operation.js';
import type { ServiceDeps } from './deps.js';

/**
 * A runner for facades built over other deps (an import's or a copy's transaction): the same
 * operations, parsed and judged the same way; no token secrets are involved there.
 */
export const runnerOf = (deps: ServiceDeps): OperationRunner =>
  createOperationRunner({ ...deps, tokenSecrets: null });
