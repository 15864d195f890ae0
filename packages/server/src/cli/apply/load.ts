import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { CliError } from '../io.js';
import { type ApplyFile, applyFileSchema } from './schema.js';

/** `features[2].environments.production.strategies[0]`: a zod path as a reader finds it in the file. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const text = String(key);
      out += /^[A-Za-z_$][\w$-]*$/.test(text) ? `${out ? '.' : ''}${text}` : `[${JSON.stringify(text)}]`;
    }
  }
  return out || '(top level)';
}

/** zod's message without its "Invalid input: " preamble. */
function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown ${issue.keys.length > 1 ? 'keys' : 'key'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message.replace(/^Invalid input: /, '');
}

/** Checks that need the whole file: one feature, segment or project per name. */
function duplicates(file: ApplyFile): string[] {
  const errors: string[] = [];
  const check = (list: { name?: string; id?: string }[], key: string) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      const id = item.name ?? item.id ?? '';
      if (seen.has(id))
        errors.push(`${key}[${i}].${item.name === undefined ? 'id' : 'name'}: "${id}" is listed twice`);
      seen.add(id);
    });
  };
  check(file.features, 'features');
  check(file.segments, 'segments');
  check(file.projects, 'projects');
  check(file.environments, 'environments');
  check(file.contextFields, 'contextFields');
  check(file.tagTypes, 'tagTypes');
  return errors;
}

/** Parses and validates an apply document (YAML or JSON text); every problem is named by its path. */
export function parseApplyText(text: string, source: string): ApplyFile {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const where = first.linePos ? ` (line ${first.linePos[0].line}, column ${first.linePos[0].col})` : '';
    throw new CliError(`${source}: not valid YAML or JSON${where}: ${first.message.split('\n')[0]}`);
  }
  const parsed = applyFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issueText(issue)}`);
    throw new CliError(`${source} is not a valid apply file:\n  ${lines.join('\n  ')}`);
  }
  const problems = duplicates(parsed.data);
  if (problems.length > 0)
    throw new CliError(`${source} is not a valid apply file:\n  ${problems.join('\n  ')}`);
  return parsed.data;
}

/** Reads and validates an apply file. */
export function loadApplyFile(path: string): ApplyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseApplyText(text, path);
}
