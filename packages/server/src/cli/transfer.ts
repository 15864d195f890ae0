import { readFileSync } from 'node:fs';
import type { ApiClient } from './api-client.js';
import { CliError } from './io.js';

export interface ExportSelection {
  environment: string;
  project?: string;
  features?: string[];
  tag?: string;
}

/** POST /api/admin/features-batch/export: everything live when nothing narrows it. */
export function exportFeatures(client: ApiClient, selection: ExportSelection): Promise<unknown> {
  const narrowed =
    selection.project !== undefined || selection.tag !== undefined || selection.features !== undefined;
  return client.request('POST', '/api/admin/features-batch/export', {
    environment: selection.environment,
    ...(selection.project !== undefined ? { project: selection.project } : {}),
    ...(selection.tag !== undefined ? { tag: selection.tag } : {}),
    ...(selection.features !== undefined ? { features: selection.features } : {}),
    ...(narrowed ? {} : { features: [] }),
  });
}

interface Finding {
  message: string;
  affectedItems?: string[];
}
interface Validation {
  errors: Finding[];
  warnings: Finding[];
  permissions: Finding[];
}

const describe = (f: Finding) =>
  f.affectedItems?.length ? `${f.message} (${f.affectedItems.join(', ')})` : f.message;

/** Reads an export document (JSON) from a file. */
export function readExportFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseExportText(text, path);
}

/** Parses an export document read from `path` (a file name, or "standard input"). */
export function parseExportText(text: string, path: string): unknown {
  try {
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== 'object' || !('features' in data))
      throw new CliError(`${path} is not an export document (no "features")`);
    return data;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * validate, then import into a project and environment. Problems the validation finds stop it
 * before anything is written; warnings go to `warn`, and `importing` is told when the validation
 * passed and the import starts. With `dryRun`, only validates.
 */
export async function importFeatures(
  client: ApiClient,
  target: { project: string; environment: string; data: unknown },
  options: { dryRun?: boolean; warn?: (line: string) => void; importing?: () => void } = {},
): Promise<Validation> {
  const body = { project: target.project, environment: target.environment, data: target.data };
  const validation = await client.request<Validation>('POST', '/api/admin/features-batch/validate', body);
  for (const warning of validation.warnings) options.warn?.(`warning: ${describe(warning)}`);
  const problems = [...validation.errors, ...validation.permissions];
  if (problems.length > 0)
    throw new CliError(`the import was refused, nothing was written: ${problems.map(describe).join('; ')}`);
  if (options.dryRun) return validation;
  options.importing?.();
  await client.request('POST', '/api/admin/features-batch/import', body);
  return validation;
}
