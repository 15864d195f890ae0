import { createHash } from 'node:crypto';

/** 32 random bytes, as 64 hex characters. */
export const SESSION_ID_BYTES = 32;
export const SESSION_ID = /^[0-9a-f]{64}$/;

/** The key a session is stored under: SHA-256 of its id, so a database leak gives no live session. */
export const hashSessionId = (sessionId: string): string =>
  createHash('sha256').update(sessionId).digest('hex');
