import type { LoginThrottleRecord } from '../../domain/session.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';

/** How failed logins are limited. */
export interface LoginThrottleOptions {
  /** Failures within `windowMs` that lock the name (default 5). */
  maxFailures?: number;
  /** How far back failures count towards the lock (default 15 minutes). */
  windowMs?: number;
  /** How long a locked name stays locked (default 5 minutes). */
  lockMs?: number;
}

export const DEFAULT_LOGIN_THROTTLE: Required<LoginThrottleOptions> = Object.freeze({
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 5 * 60_000,
});

/**
 * Failed-login counting per lower-cased login name, kept in the store so every process sharing it
 * counts together. Callers run `recordFailure` and `clear` inside a transaction (serialized per
 * store), so concurrent failures are never lost.
 */
export function createLoginThrottle(options: LoginThrottleOptions = {}) {
  const { maxFailures, windowMs, lockMs } = { ...DEFAULT_LOGIN_THROTTLE, ...options };
  for (const [name, value] of Object.entries({ maxFailures, windowMs, lockMs }))
    if (!Number.isFinite(value) || value < 1)
      throw new FlagstaffError('VALIDATION', `"loginThrottle.${name}" must be a positive number.`, {
        path: `loginThrottle.${name}`,
      });

  return {
    /** Throws RATE_LIMITED while the name is locked; `retryAfterSeconds` is in the details. */
    async assertOpen(repos: ReadRepositories, name: string, now: Date): Promise<void> {
      const row = await repos.loginThrottles.get(name);
      if (!row?.lockedUntil) return;
      const left = Date.parse(row.lockedUntil) - now.getTime();
      if (left <= 0) return;
      const seconds = Math.ceil(left / 1000);
      throw new FlagstaffError(
        'RATE_LIMITED',
        `Too many failed logins for ${name}; try again in ${seconds} seconds.`,
        {
          username: name,
          retryAfterSeconds: seconds,
        },
      );
    },

    /** Counts one failure; the `maxFailures`-th within the window locks the name for `lockMs`. */
    async recordFailure(repos: Repositories, name: string, now: Date): Promise<LoginThrottleRecord> {
      const at = now.toISOString();
      const row = await repos.loginThrottles.get(name);
      const lapsed =
        !row ||
        now.getTime() - Date.parse(row.firstFailureAt) > windowMs ||
        (row.lockedUntil !== null && Date.parse(row.lockedUntil) <= now.getTime());
      const failures = lapsed ? 1 : row.failures + 1;
      const next: LoginThrottleRecord = {
        username: name,
        failures,
        firstFailureAt: lapsed ? at : row.firstFailureAt,
        lastFailureAt: at,
        lockedUntil: failures >= maxFailures ? new Date(now.getTime() + lockMs).toISOString() : null,
      };
      await repos.loginThrottles.put(next);
      return next;
    },

    /** Forgets the failures of a name (after a successful login). */
    async clear(repos: Repositories, name: string): Promise<void> {
      await repos.loginThrottles.delete(name);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
