import type { z } from 'zod';
import { FlagstaffError } from '../errors.js';

const describePath = (path: readonly PropertyKey[]): string =>
  path.length === 0
    ? 'body'
    : path
        .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
        .join('.')
        .replace(/\.\[/g, '[');

/**
 * Parses input with a schema; on failure throws a VALIDATION error whose message names the
 * offending property (`"strategies[0].constraints[1].operator" …`).
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, root?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error, root);
}

/** The VALIDATION error of a failed parse, naming the first offending property. */
export function validationError(error: z.ZodError, root?: string): FlagstaffError {
  const issues = error.issues.map((issue) => {
    const path = describePath(issue.path);
    const full = root ? (issue.path.length ? `${root}.${path}` : root) : path;
    if (issue.code === 'unrecognized_keys') {
      return {
        path: full,
        message: `"${full}" has unknown propert${issue.keys.length > 1 ? 'ies' : 'y'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`,
      };
    }
    return { path: full, message: `"${full}" ${lowerFirst(issue.message)}` };
  });
  const first = issues[0]!;
  const message =
    issues.length === 1
      ? `${first.message}.`
      : `${first.message} (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''}).`;
  return new FlagstaffError('VALIDATION', message, { path: first.path, issues });
}

const lowerFirst = (s: string): string => (s.length ? s[0]!.toLowerCase() + s.slice(1) : s);
