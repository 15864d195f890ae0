import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createApiTokenService(_deps: ServiceDeps) {
  return {};
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
