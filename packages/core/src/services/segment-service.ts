import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createSegmentService(_deps: ServiceDeps) {
  return {};
}

export type SegmentService = ReturnType<typeof createSegmentService>;
