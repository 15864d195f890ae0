import type { RepoContext } from '../context.js';
import { int } from '../context.js';
import { eventTerms } from '../search-terms.js';

/** Events folded into an index written behind the log per statement. */
const BATCH = 500;

/**
 * Folds the events past an index's position into it (SQLite's FTS5), in `ctx`'s write transaction:
 * their terms are worked out here, from the stored rows, so appends do not pay for them.
 */
export async function catchUpEventIndex(ctx: RepoContext): Promise<void> {
  const index = ctx.dialect.eventSearch.behind;
  if (!index) return;
  const { db, dialect } = ctx;
  const parse = (raw: unknown): unknown => (raw === null ? null : dialect.parseJson(raw));
  for (let from = await index.position(db); ; ) {
    const rows = await db
      .selectFrom('events as e')
      .leftJoin('event_creators as c', 'c.name', 'e.created_by')
      .select([
        'e.id',
        'e.type',
        'e.project',
        'e.feature_name',
        'e.data',
        'e.pre_data',
        'e.tags',
        'c.id as creator',
      ])
      .where('e.id', '>', from)
      .orderBy('e.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    await index.add(
      db,
      rows.map((row) => ({
        id: int(row.id),
        terms: eventTerms(
          {
            type: row.type,
            project: row.project,
            featureName: row.feature_name,
            data: parse(row.data),
            preData: parse(row.pre_data),
            tags: parse(row.tags),
          },
          row.creator ?? 0,
        ),
      })),
    );
    if (rows.length < BATCH) return;
    from = int(rows.at(-1)!.id);
  }
}

/** Before a text search: brings an index written behind the log up to date (nothing otherwise). */
export async function eventIndexCaughtUp(ctx: RepoContext): Promise<void> {
  const index = ctx.dialect.eventSearch.behind;
  if (!index) return;
  if (ctx.db.isTransaction) return catchUpEventIndex(ctx);
  if (!(await index.lagging(ctx.db))) return;
  await ctx.db.transaction().execute((trx) => catchUpEventIndex({ ...ctx, db: trx }));
}
