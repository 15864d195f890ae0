import type { Constraint, Segment, SegmentRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type { SegmentTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

const getSegment = prepared((db, p: Binder<{ id: number }>) =>
  db.selectFrom('segments').selectAll().where('id', '=', p.value('id')),
);

/** Segments; ids come from the database and never repeat. */
export function createSegmentRepository(ctx: RepoContext): SegmentRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toSegment = (row: Selectable<SegmentTable>): Segment => ({
    id: row.id,
    name: row.name,
    description: row.description,
    project: row.project,
    constraints: parse<Constraint[]>(row.constraints),
    createdAt: row.created_at,
    createdBy: row.created_by,
  });
  const columns = (s: Omit<Segment, 'id'>) => ({
    name: s.name,
    description: s.description,
    project: s.project,
    constraints: json(s.constraints),
    created_at: s.createdAt,
    created_by: s.createdBy,
  });
  const taken = (name: string) => `A segment named "${name}" already exists.`;
  return {
    async list() {
      return (await db.selectFrom('segments').selectAll().orderBy('id').execute()).map(toSegment);
    },
    async get(id) {
      const row = (await getSegment.run(ctx, { id })).rows[0];
      return row ? toSegment(row) : null;
    },
    async insert(segment) {
      const row = await uniqueOr(ctx, taken(segment.name), (d) =>
        d.insertInto('segments').values(columns(segment)).returningAll().executeTakeFirstOrThrow(),
      );
      return toSegment(row);
    },
    async update(segment) {
      const result = await uniqueOr(ctx, taken(segment.name), (d) =>
        d.updateTable('segments').set(columns(segment)).where('id', '=', segment.id).executeTakeFirst(),
      );
      return touched(result);
    },
    async delete(id) {
      if (!touched(await db.deleteFrom('segments').where('id', '=', id).executeTakeFirst())) return false;
      await db.deleteFrom('strategy_segments').where('segment_id', '=', id).execute();
      return true;
    },
  };
}
