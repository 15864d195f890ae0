import type { z } from 'zod';
import { ApiError } from '../../api/errors';

export interface FormErrors {
  /** By top-level property: name, description, stickiness… */
  fields: Record<string, string>;
  /** By legal value row. */
  rows: Record<number, string>;
}

export const noErrors: FormErrors = { fields: {}, rows: {} };

/** A failed local parse, placed next to the field or legal value row it names. */
export function fromZod(error: z.ZodError): FormErrors {
  const out: FormErrors = { fields: {}, rows: {} };
  for (const issue of error.issues) {
    const [field, row] = issue.path;
    if (field === 'legalValues' && typeof row === 'number') out.rows[row] ??= `Value ${issue.message}`;
    else out.fields[String(field ?? '_form')] ??= issue.message;
  }
  return out;
}

/** The server's refusal, placed by the property path its message starts with. */
export function fromServer(error: unknown): FormErrors | null {
  if (!(error instanceof ApiError)) return null;
  // A name already taken is the only 409 these forms get.
  if (error.status === 409) return { fields: { name: error.message }, rows: {} };
  const row = /^"legalValues\[(\d+)\]/.exec(error.message);
  if (row) return { fields: {}, rows: { [Number(row[1])]: error.message } };
  const field = /^"([A-Za-z]+)"/.exec(error.message)?.[1];
  return field ? { fields: { [field]: error.message }, rows: {} } : null;
}

export const hasErrors = (e: FormErrors) => Object.keys(e.fields).length + Object.keys(e.rows).length > 0;
