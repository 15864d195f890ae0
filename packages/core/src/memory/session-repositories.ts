import { conflict } from '../errors.js';
import type { LoginThrottleRepository, SessionRepository } from '../ports/session-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, compareTime, type Sync, sorted } from './support.js';

/** Login sessions over a session of the memory database. */
export function createSessionRepository(s: Session): Sync<SessionRepository> {
  const sessions = s.table('sessions');
  return {
    insert(session) {
      if (sessions.has(session.idHash)) throw conflict('A session with this id already exists.');
      sessions.set(session.idHash, copy(session));
    },
    get: (idHash) => copy(sessions.get(idHash) ?? null),
    listForUser: (userId) =>
      sorted(
        sessions.rows().filter((row) => row.userId === userId),
        by(
          (a, b) => compareTime(a.createdAt, b.createdAt),
          (a, b) => compare(a.idHash, b.idHash),
        ),
      ).map(copy),
    touch(idHash, lastSeenAt, expiresAt) {
      const row = sessions.get(idHash);
      if (!row) return false;
      sessions.set(idHash, { ...row, lastSeenAt, expiresAt });
      return true;
    },
    delete: (idHash) => sessions.delete(idHash),
    deleteForUser: (userId, keepIdHash) =>
      sessions.deleteWhere((row) => row.userId === userId && row.idHash !== keepIdHash),
    deleteExpired: (now) => sessions.deleteWhere((row) => Date.parse(row.expiresAt) <= Date.parse(now)),
  };
}

/** Failed-login counters over a session of the memory database. */
export function createLoginThrottleRepository(s: Session): Sync<LoginThrottleRepository> {
  const throttles = s.table('loginThrottles');
  return {
    get: (username) => copy(throttles.get(username) ?? null),
    put(record) {
      throttles.set(record.username, copy(record));
    },
    delete: (username) => throttles.delete(username),
  };
}
