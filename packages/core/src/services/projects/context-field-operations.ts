import { z } from 'zod';
import {
  type ContextField,
  contextFieldSchema,
  contextFieldViewSchema,
  legalValueSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import {
  requireField,
  requireFreeFieldName,
  requireSameName,
  saveField,
  updatedField,
  withLegalValue,
  withoutLegalValue,
} from './context-field-records.js';

/** The field a path names (`:contextField`), apart from a body's own `name`. */
const contextField = z.string();

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
