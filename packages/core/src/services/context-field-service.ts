import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createContextFieldService(_deps: ServiceDeps) {
  return {};
}

export type ContextFieldService = ReturnType<typeof createContextFieldService>;
