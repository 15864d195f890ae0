import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createSignupTokenService(_deps: ServiceDeps & { baseUrl?: string | undefined }) {
  return {};
}

export type SignupTokenService = ReturnType<typeof createSignupTokenService>;
