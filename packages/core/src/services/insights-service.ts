import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createInsightsService(_deps: ServiceDeps) {
  return {};
}

export type InsightsService = ReturnType<typeof createInsightsService>;
