import { clientKey, FlagstaffError } from '@flagstaff/core';

/** How many unknown credentials one client address may present before it is turned away. */
export interface AuthFailureOptions {
  /** Unknown API tokens one address may present per window (default 60). */
  maxFailures?: number;
  /** The window those failures are counted in, in milliseconds (default 60,000). */
  windowMs?: number;
}

export const DEFAULT_AUTH_FAILURES: Required<AuthFailureOptions> = Object.freeze({
  maxFailures: 60,
  windowMs: 60_000,
});

/** Addresses tracked at most; a flood of fresh addresses costs memory, not correctness. */
const MAX_ADDRESSES = 10_000;

/**
 * Counts requests whose Authorization header named no valid token, per client (an IPv4 address
 * or an IPv6 /64), in fixed windows. Past the limit the address gets RATE_LIMITED for whatever header it sends until the
 * window ends: refusing only the unknown tokens would still tell a guesser which ones are valid.
 * Requests without a known address (adapters that cannot tell) are not counted.
 */
export function createAuthFailureLimiter(options: AuthFailureOptions = {}, now: () => number = Date.now) {
  const { maxFailures, windowMs } = { ...DEFAULT_AUTH_FAILURES, ...options };
  for (const [name, value] of Object.entries({ maxFailures, windowMs }))
    if (!Number.isInteger(value) || value < 1)
      throw new FlagstaffError('VALIDATION', `"authFailures.${name}" must be a positive integer.`, {
        path: `authFailures.${name}`,
      });
  const windows = new Map<string, { started: number; failures: number }>();

  const current = (address: string) => {
    const entry = windows.get(address);
    if (entry && now() - entry.started < windowMs) return entry;
    if (entry) windows.delete(address);
    return undefined;
  };

  return {
    /** Throws RATE_LIMITED (details: `retryAfterSeconds`) while the address is over its limit. */
    assertOpen(remoteAddress: string | undefined): void {
      const address = clientKey(remoteAddress);
      if (address === null) return;
      const entry = current(address);
      if (!entry || entry.failures < maxFailures) return;
      const seconds = Math.max(1, Math.ceil((entry.started + windowMs - now()) / 1000));
      throw new FlagstaffError(
        'RATE_LIMITED',
        `Too many requests with unknown API tokens from your address; try again in ${seconds} seconds with a valid token.`,
        { limit: 'authFailures', retryAfterSeconds: seconds },
      );
    },

    /** Counts one unknown credential from the address. */
    recordFailure(remoteAddress: string | undefined): void {
      const address = clientKey(remoteAddress);
      if (address === null) return;
      const entry = current(address);
      if (entry) {
        entry.failures++;
        return;
      }
      if (windows.size >= MAX_ADDRESSES) {
        for (const [key, value] of windows) if (now() - value.started >= windowMs) windows.delete(key);
        // Still full of live windows: forget the oldest rather than grow.
        if (windows.size >= MAX_ADDRESSES) windows.delete(windows.keys().next().value as string);
      }
      windows.set(address, { started: now(), failures: 1 });
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;
