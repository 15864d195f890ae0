import type { Addon, AddonRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, jsonOf, parseOf, type RepoContext, touched } from '../context.js';
import type { AddonTable } from '../database.js';
import { createAddonQueueMethods } from './addon-queue-repository.js';

/** The id of the one `addon_delivery` row. */
const ROW = 1;

/** A stored position (PostgreSQL returns bigint as a string). */
const position = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** Addon configurations, the delivery position and the delivery lease. */
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
  const { forget, ...queue } = createAddonQueueMethods(ctx);
  return {
    ...queue,
    async getDeliveredThrough() {
      const row = await db
        .selectFrom('addon_delivery')
        .select('delivered_through')
        .where('id', '=', ROW)
        .executeTakeFirst();
      return position(row?.delivered_through);
    },
    async setDeliveredThrough(eventId) {
      await db
        .insertInto('addon_delivery')
        .values({ id: ROW, delivered_through: eventId })
        .onConflict((oc) => oc.column('id').doUpdateSet({ delivered_through: eventId }))
        .execute();
    },
    async getDeliveryLease() {
      const row = await db
        .selectFrom('addon_delivery')
        .select(['lease_holder', 'lease_expires_at'])
        .where('id', '=', ROW)
        .executeTakeFirst();
      if (!row || row.lease_holder === null || row.lease_expires_at === null) return null;
      return { holder: row.lease_holder, expiresAt: Number(row.lease_expires_at) };
    },
    async acquireDeliveryLease(holder, now, expiresAt) {
      // One statement, so the check and the take are atomic without relying on the store's lock.
      const row = await db
        .insertInto('addon_delivery')
        .values({ id: ROW, delivered_through: null, lease_holder: holder, lease_expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ lease_holder: holder, lease_expires_at: expiresAt })
            .where((eb) =>
              eb.or([
                eb('addon_delivery.lease_holder', 'is', null),
                eb('addon_delivery.lease_holder', '=', holder),
                eb('addon_delivery.lease_expires_at', '<=', now),
              ]),
            ),
        )
        .returning('delivered_through')
        .executeTakeFirst();
      return row ? { deliveredThrough: position(row.delivered_through) } : null;
    },
    async advanceDeliveredThrough(holder, eventId, expiresAt) {
      return touched(
        await db
          .updateTable('addon_delivery')
          .set({ delivered_through: eventId, lease_expires_at: expiresAt })
          .where('id', '=', ROW)
          .where('lease_holder', '=', holder)
          .where((eb) => eb.or([eb('delivered_through', 'is', null), eb('delivered_through', '<=', eventId)]))
          .executeTakeFirst(),
      );
    },
    async releaseDeliveryLease(holder) {
      return touched(
        await db
          .updateTable('addon_delivery')
          .set({ lease_holder: null, lease_expires_at: null })
          .where('id', '=', ROW)
          .where('lease_holder', '=', holder)
          .executeTakeFirst(),
      );
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
      await forget(id);
      return touched(await db.deleteFrom('addons').where('id', '=', id).executeTakeFirst());
    },
  };
}
