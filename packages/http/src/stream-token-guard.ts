import type { Flagstaff, Logger } from '@flagstaff/core';

/** setTimeout's longest delay (~24.8 days); a later expiry is re-armed when this one fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A timer that fires a little early (clock skew) re-arms no sooner than this. */
const MIN_DELAY_MS = 50;

/**
 * Watches the API tokens that open streams were authenticated with. A stream captures its caller
 * once, so without this it would keep receiving changes after its token is deleted or expires.
 * Every token change (from any process the store hears) re-reads the tokens in use; an expiry
 * is a timer. `revoke` is called with the secret hash of a token that no longer authenticates.
 */
export function createStreamTokenGuard(
  access: Pick<Flagstaff['access'], 'tokenState' | 'onTokensChanged'>,
  revoke: (secretHash: string) => void,
  logger: Logger,
) {
  const streams = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let unsubscribe: (() => void) | null = null;

  function disarm(hash: string): void {
    const timer = timers.get(hash);
    if (timer) clearTimeout(timer);
    timers.delete(hash);
  }

  function arm(hash: string, expiresAt: string | null): void {
    disarm(hash);
    if (expiresAt === null) return;
    const delay = Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, Date.parse(expiresAt) - Date.now()));
    const timer = setTimeout(() => void check(hash), delay);
    timer.unref?.();
    timers.set(hash, timer);
  }

  async function check(hash: string): Promise<void> {
    try {
      const state = await access.tokenState(hash);
      if (!streams.has(hash)) return;
      if (state === null) revoke(hash);
      else arm(hash, state.expiresAt);
    } catch (error) {
      // The store is unreachable: the token cannot be confirmed, so its streams end; SDKs reconnect.
      logger.warn('could not re-check the token of open streams; ending them', { error: String(error) });
      if (streams.has(hash)) revoke(hash);
    }
  }

  function recheckAll(): void {
    for (const hash of streams.keys()) void check(hash);
  }

  return {
    /** Starts watching a token for a new stream; false when it no longer authenticates. */
    async add(hash: string): Promise<boolean> {
      const state = await access.tokenState(hash);
      if (state === null) return false;
      streams.set(hash, (streams.get(hash) ?? 0) + 1);
      unsubscribe ??= access.onTokensChanged(recheckAll);
      if (!timers.has(hash)) arm(hash, state.expiresAt);
      return true;
    },

    /**
     * Re-reads every watched token. Streams call it on each keep-alive tick too: a store that
     * cannot hear other processes (a second process on one SQLite file) still ends them then.
     */
    recheck: recheckAll,

    /** A stream of the token ended. */
    remove(hash: string): void {
      const left = (streams.get(hash) ?? 1) - 1;
      if (left > 0) {
        streams.set(hash, left);
        return;
      }
      streams.delete(hash);
      disarm(hash);
      if (streams.size === 0) {
        unsubscribe?.();
        unsubscribe = null;
      }
    },
  };
}

export type StreamTokenGuard = ReturnType<typeof createStreamTokenGuard>;
