import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createStrategyService(_deps: ServiceDeps) {
  return {};
}

export type StrategyService = ReturnType<typeof createStrategyService>;
