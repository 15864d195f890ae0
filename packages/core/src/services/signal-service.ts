import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createSignalService(_deps: ServiceDeps & { limits?: { endpoints?: number; tokensPerEndpoint?: number; requestsPerSecond?: number } | undefined }) {
  return {};
}

export type SignalService = ReturnType<typeof createSignalService>;
