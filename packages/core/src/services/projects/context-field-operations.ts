import { z } from 'zod';
import {
  type ContextField,
  contextFieldSchema,
  contextFieldViewSchema,
  legalValueSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import type { Actor, ServiceDeps } from '../deps.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

/** The field a path names (`:contextField`), apart from a body's own `name`. */
const contextField = z.string();

async function requireField(repos: ReadRepositories, name: string): Promise<ContextField> {
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

/** The instance's context fields (project-scoped ones are listed by their project). */
export const listContextFields = defineOperation({
  id: 'contextFields.list',
  summary: 'List context fields',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: z.array(contextFieldViewSchema),
  run: async (_input, { repos }) => (await repos.contextFields.list()).filter((f) => f.project === undefined),
});

/** One context field (of the instance or a project), or NOT_FOUND. */
export const getContextField = defineOperation({
  id: 'contextFields.get',
  summary: 'Get a context field',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ contextField }),
  output: contextFieldViewSchema,
  run: (input, { repos }) => requireField(repos, input.contextField),
});

/** VALIDATION for a name `create` would refuse, CONFLICT when it is taken. */
export const validateContextFieldName = defineOperation({
  id: 'contextFields.validateName',
  summary: 'Validate a context field name',
  kind: 'read',
  permission: 'UPDATE_CONTEXT_FIELD',
  input: validateContextFieldNameSchema,
  output: z.void(),
  run: (input, { repos }) => requireFreeFieldName(repos, input.name),
});

/** Creates a context field of the instance (context-field-created). */
export const createContextField = defineOperation({
  id: 'contextFields.create',
  summary: 'Create a context field',
  kind: 'write',
  permission: 'CREATE_CONTEXT_FIELD',
  input: contextFieldSchema,
  output: contextFieldViewSchema,
  run: async (body, { deps, repos, actor }) => {
    await requireFreeFieldName(repos, body.name);
    const field: ContextField = { ...body, description: body.description ?? null, createdAt: nowIso(deps) };
    await repos.contextFields.insert(field);
    await writeEvents(repos, actor, field.createdAt, [{ type: 'context-field-created', data: field }]);
    return field;
  },
});

/** Updates description, stickiness, sort order and legal values (context-field-updated). */
export const updateContextField = defineOperation({
  id: 'contextFields.update',
  summary: 'Update a context field',
  kind: 'write',
  permission: 'UPDATE_CONTEXT_FIELD',
  input: updateContextFieldSchema.extend({ contextField }),
  output: contextFieldViewSchema,
  run: async ({ contextField: name, ...body }, { deps, repos, actor }) => {
    requireSameName(body, name);
    const before = await requireField(repos, name);
    return saveField(deps, repos, actor, before, updatedField(before, body));
  },
});

/** Adds a legal value, or replaces the description of one the field has (context-field-updated). */
export const setContextFieldLegalValue = defineOperation({
  id: 'contextFields.setLegalValue',
  summary: 'Add a legal value to a context field, or change its description',
  kind: 'write',
  permission: 'UPDATE_CONTEXT_FIELD',
  input: legalValueSchema.extend({ contextField }),
  output: contextFieldViewSchema,
  run: async ({ contextField: name, ...value }, { deps, repos, actor }) => {
    const before = await requireField(repos, name);
    return saveField(deps, repos, actor, before, withLegalValue(before, value));
  },
});

/** Removes a legal value (context-field-updated); NOT_FOUND when the field does not have it. */
export const deleteContextFieldLegalValue = defineOperation({
  id: 'contextFields.deleteLegalValue',
  summary: 'Remove a legal value from a context field',
  kind: 'write',
  permission: 'UPDATE_CONTEXT_FIELD',
  input: z.object({ contextField, value: z.string() }),
  output: contextFieldViewSchema,
  run: async ({ contextField: name, value }, { deps, repos, actor }) => {
    const before = await requireField(repos, name);
    return saveField(deps, repos, actor, before, withoutLegalValue(before, value));
  },
});

/** Deletes a context field (context-field-deleted). */
export const deleteContextField = defineOperation({
  id: 'contextFields.delete',
  summary: 'Delete a context field',
  kind: 'write',
  permission: 'DELETE_CONTEXT_FIELD',
  input: z.object({ contextField }),
  output: z.void(),
  run: async ({ contextField: name }, { deps, repos, actor }) => {
    const before = await requireField(repos, name);
    await repos.contextFields.delete(name);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'context-field-deleted', preData: before }]);
  },
});

/** Every operation on the instance's context fields, for route tables and tools. */
export const contextFieldOperations = [
  listContextFields,
  getContextField,
  validateContextFieldName,
  createContextField,
  updateContextField,
  setContextFieldLegalValue,
  deleteContextFieldLegalValue,
  deleteContextField,
] as const;
