import type { ContextField, ContextFieldRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type { ContextFieldTable } from '../database.js';

/** Custom context fields. */
export function createContextFieldRepository(ctx: RepoContext): ContextFieldRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toField = (row: Selectable<ContextFieldTable>): ContextField => ({
    name: row.name,
    description: row.description,
    stickiness: bool(row.stickiness),
    sortOrder: row.sort_order,
    legalValues: parse<ContextField['legalValues']>(row.legal_values),
    createdAt: row.created_at,
    ...(row.project ? { project: row.project } : {}),
  });
  const columns = (f: ContextField) => ({
    description: f.description,
    stickiness: f.stickiness,
    sort_order: f.sortOrder,
    legal_values: json(f.legalValues),
    created_at: f.createdAt,
    project: f.project ?? null,
  });
  return {
    async list() {
      const rows = await db
        .selectFrom('context_fields')
        .selectAll()
        .orderBy('sort_order')
        .orderBy('name')
        .execute();
      return rows.map(toField);
    },
    async get(name) {
      const row = await db
        .selectFrom('context_fields')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? toField(row) : null;
    },
    async insert(field) {
      await uniqueOr(ctx, `A context field named "${field.name}" already exists.`, (d) =>
        d
          .insertInto('context_fields')
          .values({ name: field.name, ...columns(field) })
          .execute(),
      );
    },
    async update(field) {
      const result = await db
        .updateTable('context_fields')
        .set(columns(field))
        .where('name', '=', field.name)
        .executeTakeFirst();
      return touched(result);
    },
    async delete(name) {
      return touched(await db.deleteFrom('context_fields').where('name', '=', name).executeTakeFirst());
    },
  };
}
