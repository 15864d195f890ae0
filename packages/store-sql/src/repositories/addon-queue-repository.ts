import type {
  AddonDelivery,
  AddonDeliveryAttempt,
  AddonQueueMethods,
  AddonRepository,
} from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { int, type RepoContext, touched } from '../context.js';
import type { AddonAttemptTable, AddonQueueTable } from '../database.js';

const nullableInt = (value: number | string | null): number | null => (value === null ? null : Number(value));

const toDelivery = (row: Selectable<AddonQueueTable>): AddonDelivery => ({
  addonId: row.addon_id,
  eventId: int(row.event_id),
  state: row.state === 'parked' ? 'parked' : 'pending',
  attempts: row.attempts,
  dueSince: int(row.due_since),
  nextAttemptAt: int(row.next_attempt_at),
  failingSince: nullableInt(row.failing_since),
  lastError: row.last_error,
});

const toAttempt = (row: Selectable<AddonAttemptTable>): AddonDeliveryAttempt => ({
  id: row.id,
  addonId: row.addon_id,
  eventId: int(row.event_id),
  attempt: row.attempt,
  statusCode: row.status_code,
  durationMs: row.duration_ms,
  error: row.error,
  createdAt: row.created_at,
});

/** Rows per insert statement (well under both dialects' bound-parameter limits). */
const CHUNK = 500;

/** Delivery queue, delivery log and signing secrets; `forget` removes what an addon leaves behind. */
export function createAddonQueueMethods(
  ctx: RepoContext,
): AddonQueueMethods & { forget(addonId: number): Promise<void> } {
  const { db } = ctx;
  return {
    async enqueueDeliveries(items) {
      for (let i = 0; i < items.length; i += CHUNK) {
        const rows = items.slice(i, i + CHUNK).map((d) => ({
          addon_id: d.addonId,
          event_id: d.eventId,
          state: 'pending',
          attempts: 0,
          due_since: d.dueSince,
          next_attempt_at: d.dueSince,
          failing_since: null,
          last_error: null,
        }));
        await db
          .insertInto('addon_queue')
          .values(rows)
          .onConflict((oc) => oc.columns(['addon_id', 'event_id']).doNothing())
          .execute();
      }
    },
    async listDeliveries(addonId, state, limit) {
      const rows = await db
        .selectFrom('addon_queue')
        .selectAll()
        .where('addon_id', '=', addonId)
        .where('state', '=', state)
        .orderBy('event_id')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    async summarizeDeliveries() {
      const counts = await db
        .selectFrom('addon_queue')
        .select(['addon_id', 'state', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['addon_id', 'state'])
        .execute();
      // The failing delivery at the head of each queue: the pending one with the lowest event id.
      const heads = await db
        .selectFrom('addon_queue as q')
        .select(['q.addon_id', 'q.failing_since', 'q.last_error'])
        .where('q.state', '=', 'pending')
        .where('q.failing_since', 'is not', null)
        .where(({ eb, selectFrom, not, exists }) =>
          not(
            exists(
              selectFrom('addon_queue as e')
                .select('e.addon_id')
                .whereRef('e.addon_id', '=', 'q.addon_id')
                .where('e.state', '=', 'pending')
                .where('e.failing_since', 'is not', null)
                .whereRef('e.event_id', '<', eb.ref('q.event_id')),
            ),
          ),
        )
        .execute();
      const summaries = new Map<
        number,
        Awaited<ReturnType<AddonRepository['summarizeDeliveries']>>[number]
      >();
      const summary = (addonId: number) => {
        let s = summaries.get(addonId);
        if (!s) {
          s = { addonId, pending: 0, parked: 0, failingSince: null, lastError: null };
          summaries.set(addonId, s);
        }
        return s;
      };
      for (const row of counts) {
        if (row.state === 'parked') summary(row.addon_id).parked = int(row.n);
        else summary(row.addon_id).pending = int(row.n);
      }
      for (const head of heads) {
        const s = summary(head.addon_id);
        s.failingSince = nullableInt(head.failing_since);
        s.lastError = head.last_error;
      }
      return [...summaries.values()].sort((a, b) => a.addonId - b.addonId);
    },
    async updateDelivery(d) {
      return touched(
        await db
          .updateTable('addon_queue')
          .set({
            state: d.state,
            attempts: d.attempts,
            due_since: d.dueSince,
            next_attempt_at: d.nextAttemptAt,
            failing_since: d.failingSince,
            last_error: d.lastError,
          })
          .where('addon_id', '=', d.addonId)
          .where('event_id', '=', d.eventId)
          .executeTakeFirst(),
      );
    },
    async deleteDelivery(addonId, eventId) {
      return touched(
        await db
          .deleteFrom('addon_queue')
          .where('addon_id', '=', addonId)
          .where('event_id', '=', eventId)
          .executeTakeFirst(),
      );
    },
    async replayParked(addonId, eventId, now) {
      let query = db
        .updateTable('addon_queue')
        .set({
          state: 'pending',
          attempts: 0,
          due_since: now,
          next_attempt_at: now,
          failing_since: null,
        })
        .where('addon_id', '=', addonId)
        .where('state', '=', 'parked');
      if (eventId !== null) query = query.where('event_id', '=', eventId);
      return int((await query.executeTakeFirst()).numUpdatedRows);
    },
    async recordAttempts(attempts) {
      for (let i = 0; i < attempts.length; i += CHUNK) {
        await db
          .insertInto('addon_attempts')
          .values(
            attempts.slice(i, i + CHUNK).map((a) => ({
              addon_id: a.addonId,
              event_id: a.eventId,
              attempt: a.attempt,
              status_code: a.statusCode,
              duration_ms: a.durationMs,
              error: a.error,
              created_at: a.createdAt,
            })),
          )
          .execute();
      }
    },
    async listAttempts(addonId, { limit, offset }) {
      const rows = await db
        .selectFrom('addon_attempts')
        .selectAll()
        .where('addon_id', '=', addonId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(toAttempt);
    },
    async pruneAttempts(before) {
      const result = await db
        .deleteFrom('addon_attempts')
        .where('created_at', '<', before)
        .executeTakeFirst();
      return int(result.numDeletedRows);
    },
    async getSigningSecrets(addonId) {
      const row = await db
        .selectFrom('addon_secrets')
        .selectAll()
        .where('addon_id', '=', addonId)
        .executeTakeFirst();
      return row
        ? {
            current: row.current_secret,
            previous: row.previous_secret,
            previousExpiresAt: nullableInt(row.previous_expires_at),
          }
        : null;
    },
    async setSigningSecrets(addonId, secrets) {
      const values = {
        current_secret: secrets.current,
        previous_secret: secrets.previous,
        previous_expires_at: secrets.previousExpiresAt,
      };
      await db
        .insertInto('addon_secrets')
        .values({ addon_id: addonId, ...values })
        .onConflict((oc) => oc.column('addon_id').doUpdateSet(values))
        .execute();
    },
    async forget(addonId) {
      await db.deleteFrom('addon_queue').where('addon_id', '=', addonId).execute();
      await db.deleteFrom('addon_attempts').where('addon_id', '=', addonId).execute();
      await db.deleteFrom('addon_secrets').where('addon_id', '=', addonId).execute();
    },
  };
}
