import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createPlaygroundService(_deps: ServiceDeps) {
  return {};
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
