import type { Caller } from '../../auth/caller.js';
import {
  type ContextField,
  contextFieldSchema,
  legalValueSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, invalid, notFound } from '../../errors.js';
import type { ReadRepositories, Repositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from './project-service.js';

/**
 * Project-scoped context fields (`/api/admin/projects/:p/context…`): fields only one project's
 * constraints use, managed by those who may update the project. Names stay unique across the
 * instance; the instance-wide list (`GET /api/admin/context`) leaves them out.
 */
export function createProjectContextFields(deps: ServiceDeps) {
  const { store } = deps;

  async function requireOwn(repos: ReadRepositories, project: string, name: string): Promise<ContextField> {
    await requireProject(repos, project);
    const field = await repos.contextFields.get(name);
    if (!field || field.project !== project) throw notFound('context field', name);
    return field;
  }

  async function change(
    caller: Caller,
    project: string,
    name: string,
    next: (before: ContextField) => ContextField,
  ): Promise<ContextField> {
    const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
    return inTransaction(deps, async (tx: Repositories) => {
      const before = await requireOwn(tx, project, name);
      const after = next(before);
      await tx.contextFields.update(after);
      await writeEvents(tx, actor, nowIso(deps), [
        { type: 'context-field-updated', project, data: after, preData: before },
      ]);
      return after;
    });
  }

  return {
    async list(caller: Caller, project: string): Promise<ContextField[]> {
      await deps.policy.require(caller, 'NONE', { project });
      await requireProject(store, project);
      return (await store.contextFields.list()).filter((f) => f.project === project);
    },
    async get(caller: Caller, project: string, name: string): Promise<ContextField> {
      await deps.policy.require(caller, 'NONE', { project });
      return requireOwn(store, project, name);
    },
    async validateName(caller: Caller, project: string, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'UPDATE_PROJECT', { project });
      const { name } = parseWith(validateContextFieldNameSchema, input);
      if (await store.contextFields.get(name))
        throw conflict(`A context field named "${name}" already exists.`, 'name');
    },
    async create(caller: Caller, project: string, input: unknown): Promise<ContextField> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
      const body = parseWith(contextFieldSchema, input);
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, project);
        if (await tx.contextFields.get(body.name))
          throw conflict(`A context field named "${body.name}" already exists.`, 'name');
        const field: ContextField = {
          ...body,
          description: body.description ?? null,
          createdAt: nowIso(deps),
          project,
        };
        await tx.contextFields.insert(field);
        await writeEvents(tx, actor, field.createdAt, [
          { type: 'context-field-created', project, data: field },
        ]);
        return field;
      });
    },
    async update(caller: Caller, project: string, name: string, input: unknown): Promise<ContextField> {
      await deps.policy.require(caller, 'UPDATE_PROJECT', { project });
      const body = parseWith(updateContextFieldSchema, input);
      if (body.name !== undefined && body.name !== name)
        throw invalid('name', `must be "${name}" (the field in the path).`);
      return change(caller, project, name, (before) => ({
        ...before,
        description: body.description === undefined ? before.description : body.description,
        stickiness: body.stickiness ?? before.stickiness,
        sortOrder: body.sortOrder ?? before.sortOrder,
        legalValues: body.legalValues ?? before.legalValues,
      }));
    },
    async delete(caller: Caller, project: string, name: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
      await inTransaction(deps, async (tx) => {
        const before = await requireOwn(tx, project, name);
        await tx.contextFields.delete(name);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'context-field-deleted', project, preData: before },
        ]);
      });
    },
    async setLegalValue(
      caller: Caller,
      project: string,
      name: string,
      input: unknown,
    ): Promise<ContextField> {
      await deps.policy.require(caller, 'UPDATE_PROJECT', { project });
      const value = parseWith(legalValueSchema, input);
      return change(caller, project, name, (before) => ({
        ...before,
        legalValues: before.legalValues.some((v) => v.value === value.value)
          ? before.legalValues.map((v) => (v.value === value.value ? value : v))
          : [...before.legalValues, value],
      }));
    },
    async deleteLegalValue(
      caller: Caller,
      project: string,
      name: string,
      value: string,
    ): Promise<ContextField> {
      return change(caller, project, name, (before) => {
        if (!before.legalValues.some((v) => v.value === value)) throw notFound('legal value', value);
        return { ...before, legalValues: before.legalValues.filter((v) => v.value !== value) };
      });
    },
    /** Feature strategies of the project constrained on the field. */
    async strategies(caller: Caller, project: string, name: string) {
      await deps.policy.require(caller, 'NONE', { project });
      await requireOwn(store, project, name);
      const strategies = (await store.strategies.list({ projectId: project }))
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
  };
}

export type ProjectContextFields = ReturnType<typeof createProjectContextFields>;
