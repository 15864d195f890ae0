import type { z } from 'zod';
import type { ContextField, legalValueSchema, updateContextFieldSchema } from '../../domain/context-field.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

// What the context field operations of the instance and of projects share.

/** The field, or NOT_FOUND. */
export async function requireField(repos: ReadRepositories, name: string): Promise<ContextField> {
  const field = await repos.contextFields.get(name);
  if (!field) throw notFound('context field', name);
  return field;
}

/** CONFLICT when any field, of the instance or of a project, has the name. */
export async function requireFreeFieldName(repos: ReadRepositories, name: string): Promise<void> {
  if (await repos.contextFields.get(name))
    throw conflict(`A context field named "${name}" already exists.`, 'name');
}

/** A body's `name` may only repeat the field of the path. */
export function requireSameName(body: { name?: string | undefined }, name: string): void {
  if (body.name !== undefined && body.name !== name)
    throw new FlagstaffError('VALIDATION', `"name" must be "${name}" (the field in the path).`, {
      path: 'name',
    });
}

/** The field with the update body's properties over it; what is omitted stays. */
export const updatedField = (before: ContextField, body: z.output<typeof updateContextFieldSchema>) => ({
  ...before,
  description: body.description === undefined ? before.description : body.description,
  stickiness: body.stickiness ?? before.stickiness,
  sortOrder: body.sortOrder ?? before.sortOrder,
  legalValues: body.legalValues ?? before.legalValues,
});

/** The field's legal values with one added, or with the description of the one it has replaced. */
export const withLegalValue = (
  before: ContextField,
  value: z.output<typeof legalValueSchema>,
): ContextField => ({
  ...before,
  legalValues: before.legalValues.some((v) => v.value === value.value)
    ? before.legalValues.map((v) => (v.value === value.value ? value : v))
    : [...before.legalValues, value],
});

/** The field without a legal value; NOT_FOUND when it does not have it. */
export function withoutLegalValue(before: ContextField, value: string): ContextField {
  if (!before.legalValues.some((v) => v.value === value)) throw notFound('legal value', value);
  return { ...before, legalValues: before.legalValues.filter((v) => v.value !== value) };
}

/** Stores a field's new state (context-field-updated, with its project when it has one). */
export async function saveField(
  deps: ServiceDeps,
  repos: Repositories,
  actor: Actor,
  before: ContextField,
  after: ContextField,
): Promise<ContextField> {
  await repos.contextFields.update(after);
  await writeEvents(repos, actor, nowIso(deps), [
    {
      type: 'context-field-updated',
      ...(before.project !== undefined && { project: before.project }),
      data: after,
      preData: before,
    },
  ]);
  return after;
}
