import {
  type ContextField,
  contextFieldSchema,
  updateContextFieldSchema,
} from '../../domain/context-field.js';
import { validateContextFieldNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

async function requireField(repos: ReadRepositories, name: string): Promise<ContextField> {
  const field = await repos.contextFields.get(name);
  if (!field) throw notFound('context field', name);
  return field;
}

/** Context fields that constraints and stickiness refer to. */
export function createContextFieldService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    list: () => store.contextFields.list(),
    get: (name: string) => requireField(store, name),

    /** POST /context/validate: VALIDATION for a name `create` would refuse, CONFLICT when it is taken. */
    async validateName(input: unknown): Promise<void> {
      const { name } = parseWith(validateContextFieldNameSchema, input);
      if (await store.contextFields.get(name))
        throw conflict(`A context field named "${name}" already exists.`);
    },

    /** Creates a context field (context-field-created). */
    async create(actor: Actor, input: unknown): Promise<ContextField> {
      const body = parseWith(contextFieldSchema, input);
      return inTransaction(deps, async (tx) => {
        if (await tx.contextFields.get(body.name))
          throw conflict(`A context field named "${body.name}" already exists.`);
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
    async update(actor: Actor, name: string, input: unknown): Promise<ContextField> {
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

    /** Deletes a context field (context-field-deleted). */
    async delete(actor: Actor, name: string): Promise<void> {
      return inTransaction(deps, async (tx) => {
        const before = await requireField(tx, name);
        await tx.contextFields.delete(name);
        await writeEvents(tx, actor, nowIso(deps), [{ type: 'context-field-deleted', preData: before }]);
      });
    },
  };
}

export type ContextFieldService = ReturnType<typeof createContextFieldService>;
