import type { Addon, AddonRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, jsonOf, parseOf, type RepoContext, touched } from '../context.js';
import type { AddonTable } from '../database.js';

/** Addon configurations. */
export function createAddonRepository(ctx: RepoContext): AddonRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toAddon = (row: Selectable<AddonTable>): Addon => ({
    id: row.id,
    provider: row.provider,
    description: row.description,
    enabled: bool(row.enabled),
    parameters: parse<Record<string, unknown>>(row.parameters),
    events: parse<string[]>(row.events),
    projects: parse<string[]>(row.projects),
    environments: parse<string[]>(row.environments),
    createdAt: row.created_at,
  });
  const columns = (a: Omit<Addon, 'id'>) => ({
    provider: a.provider,
    description: a.description,
    enabled: a.enabled,
    parameters: json(a.parameters),
    events: json(a.events),
    projects: json(a.projects),
    environments: json(a.environments),
    created_at: a.createdAt,
  });
  return {
    async getDeliveredThrough() {
      const row = await db
        .selectFrom('addon_delivery')
        .select('delivered_through')
        .where('id', '=', 1)
        .executeTakeFirst();
      // PostgreSQL returns bigint as a string.
      return row ? Number(row.delivered_through) : null;
    },
    async setDeliveredThrough(eventId) {
      await db
        .insertInto('addon_delivery')
        .values({ id: 1, delivered_through: eventId })
        .onConflict((oc) => oc.column('id').doUpdateSet({ delivered_through: eventId }))
        .execute();
    },
    async list() {
      return (await db.selectFrom('addons').selectAll().orderBy('id').execute()).map(toAddon);
    },
    async get(id) {
      const row = await db.selectFrom('addons').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toAddon(row) : null;
    },
    async insert(addon) {
      return toAddon(
        await db.insertInto('addons').values(columns(addon)).returningAll().executeTakeFirstOrThrow(),
      );
    },
    async update(addon) {
      return touched(
        await db.updateTable('addons').set(columns(addon)).where('id', '=', addon.id).executeTakeFirst(),
      );
    },
    async delete(id) {
      return touched(await db.deleteFrom('addons').where('id', '=', id).executeTakeFirst());
    },
  };
}
