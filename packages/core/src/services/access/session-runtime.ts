import { createHashGate, type HashLimits } from '../../auth/hash-gate.js';
import { FlagstaffError } from '../../errors.js';
import { createLoginThrottle, type LoginThrottleOptions } from './login-throttle.js';

/** Session lifetime and login throttling. */
export interface SessionOptions {
  /** A session unused this long ends (default 48 hours). */
  sessionIdleTtlMs?: number | undefined;
  loginThrottle?: LoginThrottleOptions | undefined;
  /** Password hashes in flight, overall and per client address (defaults in `DEFAULT_HASH_LIMITS`). */
  hashLimits?: HashLimits | undefined;
}

export const DEFAULT_SESSION_IDLE_TTL_MS = 48 * 60 * 60_000;
/** lastSeenAt is written at most this often per session, not on every request. */
export const TOUCH_EVERY_MS = 60_000;

/**
 * What signing in keeps between calls, one per Flagstaff: the idle lifetime of sessions, the
 * failed-login counter and the gate on password hashes in flight. The login operation and the
 * session service (authentication) share it.
 */
export function createSessionRuntime(options: SessionOptions = {}) {
  const idleTtlMs = options.sessionIdleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
  if (!Number.isFinite(idleTtlMs) || idleTtlMs < TOUCH_EVERY_MS)
    throw new FlagstaffError('VALIDATION', `"sessionIdleTtlMs" must be at least ${TOUCH_EVERY_MS} ms.`, {
      path: 'sessionIdleTtlMs',
    });
  return {
    idleTtlMs,
    /** When a session used at `from` ends unless used again. */
    expiry: (from: Date): string => new Date(from.getTime() + idleTtlMs).toISOString(),
    throttle: createLoginThrottle(options.loginThrottle),
    hashes: createHashGate(options.hashLimits),
  };
}

export type SessionRuntime = ReturnType<typeof createSessionRuntime>;
