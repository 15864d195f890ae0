import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createFeatureEnvironmentService(_deps: ServiceDeps) {
  return {};
}

export type FeatureEnvironmentService = ReturnType<typeof createFeatureEnvironmentService>;
