import { z } from 'zod';
import {
  type ContextField,
  contextFieldSchema,
  contextFieldStrategiesSchema,
  contextFieldViewSchema,
  legalValueSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import {
  requireFreeFieldName,
  requireSameName,
  saveField,
  updatedField,
  withLegalValue,
  withoutLegalValue,
} from './context-field-records.js';
import { requireProject } from './project-records.js';

// Project-scoped context fields (`/api/admin/projects/:p/context…`): fields only one project's
// constraints use, managed by those who may update the project. Names stay unique across the
// instance; the instance-wide list (`GET /api/admin/context`) leaves them out.

const project = z.string();
const contextField = z.string();
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** The project's own field, or NOT_FOUND (for the project first, then the field). */
async function requireOwn(repos: ReadRepositories, projectId: string, name: string): Promise<ContextField> {
  await requireProject(repos, projectId);
  const field = await repos.contextFields.get(name);
  if (!field || field.project !== projectId) throw notFound('context field', name);
  return field;
}

/** The project's own context fields. */
export const listProjectContextFields = defineOperation({
  id: 'projectContextFields.list',
  summary: "The project's own context fields",
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project }),
  output: z.array(contextFieldViewSchema),
  run: async (input, { repos }) => {
    await requireProject(repos, input.project);
    return (await repos.contextFields.list()).filter((f) => f.project === input.project);
  },
});

/** One context field of the project, or NOT_FOUND. */
export const getProjectContextField = defineOperation({
  id: 'projectContextFields.get',
  summary: 'One context field of the project',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project, contextField }),
  output: contextFieldViewSchema,
  run: (input, { repos }) => requireOwn(repos, input.project, input.contextField),
});

/** VALIDATION for a name `create` would refuse, CONFLICT when any field has it. */
export const validateProjectContextFieldName = defineOperation({
  id: 'projectContextFields.validateName',
  summary: 'Check a name for a new context field of the project',
  kind: 'read',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: validateContextFieldNameSchema.extend({ project }),
  output: z.void(),
  run: (input, { repos }) => requireFreeFieldName(repos, input.name),
});

/** Creates a context field of the project (context-field-created). */
export const createProjectContextField = defineOperation({
  id: 'projectContextFields.create',
  summary: 'Create a context field of the project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: contextFieldSchema.extend({ project }),
  output: contextFieldViewSchema,
  run: async ({ project, ...body }, { deps, repos, actor }) => {
    await requireProject(repos, project);
    await requireFreeFieldName(repos, body.name);
    const field: ContextField = {
      ...body,
      description: body.description ?? null,
      createdAt: nowIso(deps),
      project,
    };
    await repos.contextFields.insert(field);
    await writeEvents(repos, actor, field.createdAt, [
      { type: 'context-field-created', project, data: field },
    ]);
    return field;
  },
});

/** Changes a field of the project; what is omitted stays (context-field-updated). */
export const updateProjectContextField = defineOperation({
  id: 'projectContextFields.update',
  summary: 'Change a context field of the project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: updateContextFieldSchema.extend({ project, contextField }),
  output: contextFieldViewSchema,
  run: async ({ project, contextField: name, ...body }, { deps, repos, actor }) => {
    requireSameName(body, name);
    const before = await requireOwn(repos, project, name);
    return saveField(deps, repos, actor, before, updatedField(before, body));
  },
});

/** Deletes a context field of the project (context-field-deleted). */
export const deleteProjectContextField = defineOperation({
  id: 'projectContextFields.delete',
  summary: 'Delete a context field of the project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: z.object({ project, contextField }),
  output: z.void(),
  run: async ({ project, contextField: name }, { deps, repos, actor }) => {
    const before = await requireOwn(repos, project, name);
    await repos.contextFields.delete(name);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'context-field-deleted', project, preData: before },
    ]);
  },
});

/** Adds a legal value to a field of the project, or changes its description (context-field-updated). */
export const setProjectContextFieldLegalValue = defineOperation({
  id: 'projectContextFields.setLegalValue',
  summary: 'Add a legal value to a context field of the project, or change its description',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: legalValueSchema.extend({ project, contextField }),
  output: contextFieldViewSchema,
  run: async ({ project, contextField: name, ...value }, { deps, repos, actor }) => {
    const before = await requireOwn(repos, project, name);
    return saveField(deps, repos, actor, before, withLegalValue(before, value));
  },
});

/** Removes a legal value from a field of the project; NOT_FOUND when it does not have it. */
export const deleteProjectContextFieldLegalValue = defineOperation({
  id: 'projectContextFields.deleteLegalValue',
  summary: 'Remove a legal value from a context field of the project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: z.object({ project, contextField, value: z.string() }),
  output: contextFieldViewSchema,
  run: async ({ project, contextField: name, value }, { deps, repos, actor }) => {
    const before = await requireOwn(repos, project, name);
    return saveField(deps, repos, actor, before, withoutLegalValue(before, value));
  },
});

/** Feature strategies of the project constrained on the field. */
export const listProjectContextFieldStrategies = defineOperation({
  id: 'projectContextFields.strategies',
  summary: "The project's feature strategies constrained on the field",
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project, contextField }),
  output: contextFieldStrategiesSchema,
  run: async ({ project, contextField: name }, { repos }) => {
    await requireOwn(repos, project, name);
    const strategies = (await repos.strategies.list({ projectId: project }))
      .filter((s) => s.constraints.some((c) => c.contextName === name))
      .map((s) => ({
        id: s.id,
        projectId: s.projectId,
        featureName: s.featureName,
        strategyName: s.name,
        environment: s.environment,
      }));
    return { strategies };
  },
});

/** Every operation on project-scoped context fields, for route tables and tools. */
export const projectContextFieldOperations = [
  listProjectContextFields,
  getProjectContextField,
  validateProjectContextFieldName,
  createProjectContextField,
  updateProjectContextField,
  deleteProjectContextField,
  setProjectContextFieldLegalValue,
  deleteProjectContextFieldLegalValue,
  listProjectContextFieldStrategies,
] as const;
