import { FlagstaffError } from '../errors.js';
import { clientKey } from './client-key.js';

/** How many password hashes may run or wait at once. */
export interface HashLimits {
  /** Hashes computed at once, whoever asks (default 4, the size of Node's default thread pool). */
  maxInFlight?: number;
  /** Hashes waiting for a free slot beyond those (default 16); past it the attempt is refused. */
  maxQueued?: number;
  /**
   * Hashes one client may have running or waiting (default 2): an IPv4 address, or an IPv6 /64.
   * Callers without an address (in-process) only meet the overall bounds.
   */
  maxPerClient?: number;
}

export const DEFAULT_HASH_LIMITS: Required<HashLimits> = Object.freeze({
  maxInFlight: 4,
  maxQueued: 16,
  maxPerClient: 2,
});

// A slot frees within one hash (~100 ms); a second is the honest smallest Retry-After.
const RETRY_AFTER_SECONDS = 1;

const busy = (message: string, limit: string): FlagstaffError =>
  new FlagstaffError('RATE_LIMITED', message, { limit, retryAfterSeconds: RETRY_AFTER_SECONDS });

/**
 * Bounds the scrypt work a process takes on for requests. Each hash holds 32 MiB and a thread of
 * the shared pool for ~100 ms, so an unbounded flood of logins (unknown names included: they check
 * a decoy hash) queues every real login behind it. Past the bounds an attempt is refused at once,
 * before any hashing, with RATE_LIMITED; a client address can only ever hold a small share of the
 * slots, so a flood from one address leaves room for everyone else.
 */
export function createHashGate(limits: HashLimits = {}) {
  const { maxInFlight, maxQueued, maxPerClient } = { ...DEFAULT_HASH_LIMITS, ...limits };
  for (const [name, value] of Object.entries({ maxInFlight, maxPerClient }))
    if (!Number.isInteger(value) || value < 1)
      throw new FlagstaffError('VALIDATION', `"hashLimits.${name}" must be a positive integer.`, {
        path: `hashLimits.${name}`,
      });
  if (!Number.isInteger(maxQueued) || maxQueued < 0)
    throw new FlagstaffError('VALIDATION', '"hashLimits.maxQueued" must be a whole number.', {
      path: 'hashLimits.maxQueued',
    });

  let running = 0;
  const waiting: (() => void)[] = [];
  const perClient = new Map<string, number>();

  const release = (): void => {
    // A freed slot goes straight to the longest waiter, so `running` never drops below what runs.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    /**
     * Runs `hash` once a slot is free; throws RATE_LIMITED (details: `retryAfterSeconds`) at once
     * when the client already holds its share or the server is running and queueing its most.
     */
    async run<T>(client: string | null | undefined, hash: () => Promise<T>): Promise<T> {
      // Without an address (in-process callers, runtimes that do not tell) only the overall bound applies.
      const key = clientKey(client);
      const held = key === null ? 0 : (perClient.get(key) ?? 0);
      if (held >= maxPerClient)
        throw busy(
          `Too many sign-ins from your address at once; try again in ${RETRY_AFTER_SECONDS} second.`,
          'maxPerClient',
        );
      if (running >= maxInFlight && waiting.length >= maxQueued)
        throw busy(
          `The server is busy with other sign-ins; try again in ${RETRY_AFTER_SECONDS} second.`,
          'maxInFlight',
        );
      if (key !== null) perClient.set(key, held + 1);
      try {
        if (running < maxInFlight) running++;
        else await new Promise<void>((resolve) => waiting.push(resolve));
        try {
          return await hash();
        } finally {
          release();
        }
      } finally {
        if (key !== null) {
          const left = (perClient.get(key) ?? 1) - 1;
          if (left > 0) perClient.set(key, left);
          else perClient.delete(key);
        }
      }
    },

    /** Hashes running and waiting right now (for tests and metrics). */
    get load(): { running: number; waiting: number } {
      return { running, waiting: waiting.length };
    },
  };
}

export type HashGate = ReturnType<typeof createHashGate>;
