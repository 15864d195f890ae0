import type { LoginThrottleRecord, SessionRecord } from '../domain/session.js';

/** Login sessions, keyed by the SHA-256 of the session id. */
export interface SessionRepository {
  /** CONFLICT when a session with this hash exists. */
  insert(session: SessionRecord): Promise<void>;
  /** The session, expired or not (the caller compares `expiresAt`); null when unknown. */
  get(idHash: string): Promise<SessionRecord | null>;
  /** Sessions of a user, ordered by createdAt, then idHash. */
  listForUser(userId: number): Promise<SessionRecord[]>;
  /** Sets lastSeenAt and expiresAt; false when the session is gone. */
  touch(idHash: string, lastSeenAt: string, expiresAt: string): Promise<boolean>;
  delete(idHash: string): Promise<boolean>;
  /** Deletes every session of the user except `keepIdHash`; returns how many. */
  deleteForUser(userId: number, keepIdHash?: string): Promise<number>;
  /** Deletes sessions whose expiresAt is at or before `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}

/** Failed-login counters, one row per lower-cased username. */
export interface LoginThrottleRepository {
  get(username: string): Promise<LoginThrottleRecord | null>;
  /** Inserts or replaces the row of `record.username`. */
  put(record: LoginThrottleRecord): Promise<void>;
  delete(username: string): Promise<boolean>;
}
