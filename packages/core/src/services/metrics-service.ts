import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createMetricsService(_deps: ServiceDeps) {
  return {};
}

export type MetricsService = ReturnType<typeof createMetricsService>;
