import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createUserService(_deps: ServiceDeps) {
  return {};
}

export type UserService = ReturnType<typeof createUserService>;
