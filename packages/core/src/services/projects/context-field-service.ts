import type { Caller } from '../../auth/caller.js';
import {
  type ContextField,
  contextFieldSchema,
  legalValueSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

async function requireField(repos: ReadRepositories, name: string): Promise<ContextField> {
  const field = await repos.contextFields.get(name);
  if (!field) throw notFound('context field', name);
  return field;
}

/** Context fields that constraints and stickiness refer to. */
export function createContextFieldService(deps: ServiceDeps) {
  const { store } = deps;
  const service = {
    /** The instance's context fields (project-scoped ones are listed by their project). */
    async list(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      return (await store.contextFields.list()).filter((f) => f.project === undefined);
    },
    async get(caller: Caller, name: string) {
      await deps.policy.require(caller, 'NONE', {});
      return requireField(store, name);
    },

    /** POST /context/validate: VALIDATION for a name `create` would refuse, CONFLICT when it is taken. */
    async validateName(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'UPDATE_CONTEXT_FIELD', {});
      const { name } = parseWith(validateContextFieldNameSchema, input);
      if (await store.contextFields.get(name))
        throw conflict(`A context field named "${name}" already exists.`, 'name');
    },

    /** Creates a context field (context-field-created). */
    async create(caller: Caller, input: unknown): Promise<ContextField> {
      const actor = await deps.policy.permit(caller, 'CREATE_CONTEXT_FIELD', {});
      const body = parseWith(contextFieldSchema, input);
      return inTransaction(deps, async (tx) => {
        if (await tx.contextFields.get(body.name))
          throw conflict(`A context field named "${body.name}" already exists.`, 'name');
        const field: ContextField = {
          ...body,
          description: body.description ?? null,
          createdAt: nowIso(deps),
        };
        await tx.contextFields.insert(field);
        await writeEvents(tx, actor, field.createdAt, [{ type: 'context-field-created', data: field }]);
        return field;
      });
    },

    /** Updates description, stickiness, sort order and legal values (context-field-updated). */
    async update(caller: Caller, name: string, input: unknown): Promise<ContextField> {
      const actor = await deps.policy.permit(caller, 'UPDATE_CONTEXT_FIELD', {});
      const body = parseWith(updateContextFieldSchema, input);
      if (body.name !== undefined && body.name !== name)
        throw new FlagstaffError('VALIDATION', `"name" must be "${name}" (the field in the path).`, {
          path: 'name',
        });
      return inTransaction(deps, async (tx) => {
        const before = await requireField(tx, name);
        const after: ContextField = {
          ...before,
          description: body.description === undefined ? before.description : body.description,
          stickiness: body.stickiness ?? before.stickiness,
          sortOrder: body.sortOrder ?? before.sortOrder,
          legalValues: body.legalValues ?? before.legalValues,
        };
        await tx.contextFields.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'context-field-updated', data: after, preData: before },
        ]);
        return after;
      });
    },

    /**
     * Adds a legal value, or replaces the description of one the field has (context-field-updated);
     * the reference's `POST /context/:field/legal-values`.
     */
    async setLegalValue(caller: Caller, name: string, input: unknown): Promise<ContextField> {
      await deps.policy.require(caller, 'UPDATE_CONTEXT_FIELD', {});
      const value = parseWith(legalValueSchema, input);
      const field = await requireField(store, name);
      const legalValues = field.legalValues.some((v) => v.value === value.value)
        ? field.legalValues.map((v) => (v.value === value.value ? value : v))
        : [...field.legalValues, value];
      return service.update(caller, name, { legalValues });
    },

    /** Removes a legal value (context-field-updated); NOT_FOUND when the field does not have it. */
    async deleteLegalValue(caller: Caller, name: string, value: string): Promise<ContextField> {
      await deps.policy.require(caller, 'UPDATE_CONTEXT_FIELD', {});
      const field = await requireField(store, name);
      if (!field.legalValues.some((v) => v.value === value)) throw notFound('legal value', value);
      return service.update(caller, name, {
        legalValues: field.legalValues.filter((v) => v.value !== value),
      });
    },

    /** Deletes a context field (context-field-deleted). */
    async delete(caller: Caller, name: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_CONTEXT_FIELD', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireField(tx, name);
        await tx.contextFields.delete(name);
        await writeEvents(tx, actor, nowIso(deps), [{ type: 'context-field-deleted', preData: before }]);
      });
    },
  };
  return service;
}

export type ContextFieldService = ReturnType<typeof createContextFieldService>;
