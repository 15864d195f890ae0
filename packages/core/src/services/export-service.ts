import type { ServiceDeps } from './deps.js';

/** Placeholder: being written. */
export function createExportService(_deps: ServiceDeps) {
  return {};
}

export type ExportService = ReturnType<typeof createExportService>;
