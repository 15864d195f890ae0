import type { LoginThrottleRepository, SessionRecord, SessionRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { type RepoContext, touched, uniqueOr } from '../context.js';
import type { SessionTable } from '../database.js';

const toSession = (row: Selectable<SessionTable>): SessionRecord => ({
  idHash: row.id_hash,
  userId: row.user_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  ip: row.ip,
});

const deleted = (result: { numDeletedRows?: bigint }): number => Number(result.numDeletedRows ?? 0n);

/**
 * Login sessions. Timestamps are canonical RFC 3339 (UTC, milliseconds), so comparing them as text
 * compares instants and `deleteExpired` can use the index on expires_at.
 */
export function createSessionRepository(ctx: RepoContext): SessionRepository {
  const { db } = ctx;
  return {
    async insert(session) {
      await uniqueOr(ctx, 'A session with this id already exists.', (d) =>
        d
          .insertInto('sessions')
          .values({
            id_hash: session.idHash,
            user_id: session.userId,
            created_at: session.createdAt,
            last_seen_at: session.lastSeenAt,
            expires_at: session.expiresAt,
            ip: session.ip,
          })
          .execute(),
      );
    },
    async get(idHash) {
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return row ? toSession(row) : null;
    },
    async listForUser(userId) {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id_hash')
        .execute();
      return rows.map(toSession);
    },
    async touch(idHash, lastSeenAt, expiresAt) {
      const result = await db
        .updateTable('sessions')
        .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return touched(result);
    },
    async delete(idHash) {
      return touched(await db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst());
    },
    async deleteForUser(userId, keepIdHash) {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepIdHash !== undefined) query = query.where('id_hash', '!=', keepIdHash);
      return deleted(await query.executeTakeFirst());
    },
    async deleteExpired(now) {
      return deleted(await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst());
    },
  };
}

/** Failed-login counters, one row per lower-cased username. */
export function createLoginThrottleRepository(ctx: RepoContext): LoginThrottleRepository {
  const { db } = ctx;
  return {
    async get(username) {
      const row = await db
        .selectFrom('login_throttles')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst();
      return row
        ? {
            username: row.username,
            failures: row.failures,
            firstFailureAt: row.first_failure_at,
            lastFailureAt: row.last_failure_at,
            lockedUntil: row.locked_until,
          }
        : null;
    },
    async put(record) {
      const values = {
        failures: record.failures,
        first_failure_at: record.firstFailureAt,
        last_failure_at: record.lastFailureAt,
        locked_until: record.lockedUntil,
      };
      await db
        .insertInto('login_throttles')
        .values({ username: record.username, ...values })
        .onConflict((oc) => oc.column('username').doUpdateSet(values))
        .execute();
    },
    async delete(username) {
      return touched(
        await db.deleteFrom('login_throttles').where('username', '=', username).executeTakeFirst(),
      );
    },
  };
}
