import { useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../api/errors';

/** One problem with the property path it names (`variants[1].weight`), when it names one. */
export interface Problem {
  path: string | null;
  message: string;
}

/** Zod's path array in the server's spelling: `a.b[2].c`. */
export const describePath = (path: readonly PropertyKey[]): string =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');

const QUOTED_PATH = /^"([^"]+)"\s+/;

/**
 * The message in plain words for showing next to its field: the server's `"featureNaming.example"
 * must match the pattern.` reads "Must match the pattern." under the field it names.
 */
export function plainMessage(message: string): string {
  const rest = message.replace(QUOTED_PATH, '');
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The problems a thrown error carries: each detail of an API error with its path, else its message. */
export function problemsOf(error: unknown): Problem[] {
  if (!error) return [];
  if (error instanceof ApiError) {
    const details = (error.body as { details?: unknown } | null)?.details;
    const listed = Array.isArray(details)
      ? details.flatMap((d: unknown) =>
          typeof d === 'object' && d !== null && 'message' in d && typeof d.message === 'string'
            ? [
                {
                  message: d.message,
                  path:
                    'path' in d && typeof d.path === 'string'
                      ? d.path
                      : (QUOTED_PATH.exec(d.message)?.[1] ?? null),
                },
              ]
            : [],
        )
      : [];
    if (listed.length > 0) return listed;
    return [{ message: error.message, path: QUOTED_PATH.exec(error.message)?.[1] ?? null }];
  }
  return [{ message: error instanceof Error ? error.message : String(error), path: null }];
}

/** The problems of a failed zod parse, spelled like the server's. */
export const zodProblems = (error: z.ZodError): Problem[] =>
  error.issues.map((issue) => ({ path: describePath(issue.path) || null, message: issue.message }));

/**
 * The field of `fields` a path belongs to: the field itself or the longest field it lies under
 * (`variants[1].payload.value` belongs to `variants[1].payload`).
 */
export function fieldFor(path: string | null, fields: readonly string[]): string | null {
  if (!path) return null;
  let best: string | null = null;
  for (const field of fields)
    if (
      (path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`)) &&
      field.length > (best?.length ?? -1)
    )
      best = field;
  return best;
}

/** Problems placed on the form's fields, and what names none of them (shown at the form's foot). */
export interface PlacedErrors {
  byField: Record<string, string>;
  rest: string | null;
}

export function placeProblems(
  problems: readonly Problem[],
  fields: readonly string[],
  fallbackField?: string,
): PlacedErrors {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const problem of problems) {
    const field = fieldFor(problem.path, fields) ?? fallbackField ?? null;
    if (field) byField[field] ??= plainMessage(problem.message);
    else rest.push(problem.message);
  }
  return { byField, rest: rest[0] ?? null };
}

/**
 * The one way forms show errors: the same core schema checks before sending, and the server's refusal
 * next to the field whose property path it names. `fields` are property paths as the API spells them
 * (`name`, `featureNaming.example`, `variants[0].weight`); `fallbackField` takes a refusal that names
 * no property (e.g. a 409 about the form's only input).
 */
export function useFormErrors(
  serverError: unknown,
  fields: readonly string[],
  options: { fallbackField?: string } = {},
) {
  const [client, setClient] = useState<Problem[]>([]);
  const placed = placeProblems(
    client.length > 0 ? client : problemsOf(serverError),
    fields,
    // Network failures and the like name no field: they belong at the foot of the form.
    serverError instanceof ApiError && serverError.status < 500 ? options.fallbackField : undefined,
  );
  return {
    /** The message for a field, in plain words. */
    of: (field: string): string | undefined => placed.byField[field],
    /** A message that names none of the form's fields. */
    rest: placed.rest,
    /** Checks a value with a core schema before sending; false (and errors shown) when it fails. */
    check<S extends z.ZodType>(schema: S, value: unknown, extra: Problem[] = []): value is z.input<S> {
      const parsed = schema.safeParse(value);
      const problems = [...(parsed.success ? [] : zodProblems(parsed.error)), ...extra];
      setClient(problems);
      return problems.length === 0;
    },
    /** Shows problems found by the form itself (empty clears them); true when there were none. */
    report(problems: Problem[]): boolean {
      setClient(problems);
      return problems.length === 0;
    },
  };
}
