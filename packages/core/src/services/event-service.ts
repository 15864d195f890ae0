import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createEventService(_deps: ServiceDeps) {
  return {};
}

export type EventService = ReturnType<typeof createEventService>;
