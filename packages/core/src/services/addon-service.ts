import type { HttpClient } from '../ports/runtime-ports.js';
import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createAddonService(_deps: ServiceDeps & { http: HttpClient }) {
  return {};
}

export type AddonService = ReturnType<typeof createAddonService>;
