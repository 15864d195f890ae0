import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createDependencyService(_deps: ServiceDeps) {
  return {};
}

export type DependencyService = ReturnType<typeof createDependencyService>;
