import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createClientService(_deps: ServiceDeps) {
  return {};
}

export type ClientService = ReturnType<typeof createClientService>;
