import type { SecretBox } from '../../auth/secret-box.js';
import type { Addon } from '../../domain/addon.js';
import type { AddonDelivery, AddonDeliveryAttempt } from '../../domain/addon-delivery.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import type { Repositories } from '../../ports/store.js';
import type { ServiceDeps } from '../deps.js';
import { literalRefusal, openParameters } from './addon-parameters.js';
import { ADDON_PROVIDERS, type AddonProvider } from './addon-providers.js';
import { activeSecrets, deliveryHeaders, type SecretCodec } from './addon-signing.js';
import type { OutboundPolicy } from './outbound-policy.js';

/** How one addon's queue is worked through. */
export interface RetryPolicy {
  /** Per-request timeout. */
  timeoutMs: number;
  /** How long after it became due an event is retried before it is parked. */
  retryWindowMs: number;
  /** The first retry waits about this long; each next one twice as long, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Deliveries read per batch. */
  batchSize: number;
  /** In [0, 1): the jitter's source. */
  random: () => number;
}

export interface WorkerContext {
  deps: ServiceDeps & { http: HttpClient };
  policy: RetryPolicy;
  codec: SecretCodec;
  /** Opens sealed addon parameters (null: none are sealed). */
  box: SecretBox | null;
  /** Refuses IP-literal destinations before the client is asked, whatever client the host app gave. */
  outbound: OutboundPolicy;
  /** Whether this process (still) holds the delivery lease. */
  hold(): Promise<boolean>;
  /** Marks a run starting (1) or ending (-1), so the lease is renewed while one is under way. */
  busy(delta: 1 | -1): void;
  /** Inside a transaction: whether the lease is still this process's (false rolls back and stops). */
  stillHeld(tx: Repositories): Promise<boolean>;
  /** The event with this id, from a cache of recent ones or the log. */
  event(id: number): Promise<FlagstaffEvent | null>;
}

/** Deliveries recorded per transaction while they succeed. */
const RECORD_BATCH = 50;

/** An attempt made, waiting to be recorded; `next` is the delivery's state after a failure. */
interface Result {
  attempt: Omit<AddonDeliveryAttempt, 'id'>;
  next: AddonDelivery | null;
}

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Retrying cannot help (no URL, the request cannot be built): park at once. */
  final?: boolean;
}

/** A failure's message, with the network cause fetch hides behind "fetch failed". */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${error.message}: ${typeof code === 'string' ? code : cause.message}`;
  }
  return error.message;
}

/** The delivery's state after a failed attempt at `at`: retried later, or parked. */
export function afterFailure(
  d: AddonDelivery,
  outcome: Outcome,
  at: number,
  policy: RetryPolicy,
): AddonDelivery {
  const attempts = d.attempts + 1;
  const failed = { ...d, attempts, failingSince: d.failingSince ?? at, lastError: outcome.error };
  const deadline = d.dueSince + policy.retryWindowMs;
  if (outcome.final || at >= deadline) return { ...failed, state: 'parked', nextAttemptAt: at };
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
  // "Equal jitter": half the delay fixed, half random, so retries of many addons spread out.
  const delay = Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
  return { ...failed, nextAttemptAt: Math.min(deadline, at + delay) };
}

/**
 * Delivers one addon's queue in event-log order, one event at a time: a failing head is retried with
 * backoff (later events wait, so order holds) until its retry window ends, then parked. Each attempt
 * is logged, and a delivered event leaves the queue, in one transaction. Other addons have their own
 * worker, so a dead receiver delays no one else.
 */
export function createAddonWorker(ctx: WorkerContext, addonId: number) {
  const { store, clock, logger, http } = ctx.deps;
  const now = (): number => clock.now().getTime();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function wakeAt(at: number): void {
    if (timer) clearTimeout(timer);
    // Capped, so a clock moved forward by a test (or NTP) is noticed within a second or so.
    const delay = Math.min(Math.max(0, at - now()), 60_000);
    timer = setTimeout(() => {
      timer = null;
      void kick();
    }, delay);
    timer.unref?.();
  }

  async function send(
    addon: Addon,
    provider: AddonProvider,
    event: FlagstaffEvent,
    attempt: number,
    secrets: string[],
  ): Promise<Outcome> {
    // Retrying cannot help a missing URL, a refused IP literal or a secret sealed under another key.
    const fail = (error: string): Outcome => ({
      ok: false,
      statusCode: null,
      durationMs: 0,
      error,
      final: true,
    });
    const { parameters, unreadable } = openParameters(addon.parameters, ctx.box);
    if (unreadable.length > 0)
      return fail(
        `${unreadable.join(', ')} could not be unsealed (was the server key changed?); save the addon again`,
      );
    const url = parameters['url'];
    if (typeof url !== 'string') return fail('the addon has no URL');
    const refused = literalRefusal(ctx.outbound, url);
    if (refused) return fail(refused);
    let request: { headers: Record<string, string>; body: string };
    try {
      request = provider.request(event, parameters);
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        durationMs: 0,
        error: `the request could not be built: ${describeFailure(error)}`,
        final: true,
      };
    }
    const headers = provider.signed
      ? {
          ...request.headers,
          ...deliveryHeaders({
            addonId,
            eventId: event.id,
            eventType: event.type,
            attempt,
            body: request.body,
            now: now(),
            secrets,
          }),
        }
      : request.headers;
    const started = performance.now();
    try {
      const { status } = await http.post(url, {
        headers,
        body: request.body,
        timeoutMs: ctx.policy.timeoutMs,
      });
      const durationMs = Math.round(performance.now() - started);
      if (status >= 200 && status < 300) return { ok: true, statusCode: status, durationMs, error: null };
      // Redirects are not followed: where they point was never checked against the outbound policy.
      const note = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
      return { ok: false, statusCode: status, durationMs, error: `HTTP ${status}${note}` };
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        durationMs: Math.round(performance.now() - started),
        error: describeFailure(error),
      };
    }
  }

  /**
   * Records attempts with their outcome (delivered: off the queue; failed: its next state) in one
   * transaction. False, with nothing written, when the lease turned out lost.
   */
  async function record(results: readonly Result[]): Promise<boolean> {
    if (results.length === 0) return true;
    return store.transaction(async (tx) => {
      if (!(await ctx.stillHeld(tx))) return false;
      await tx.addons.recordAttempts(results.map((r) => r.attempt));
      for (const r of results) {
        if (r.next) await tx.addons.updateDelivery(r.next);
        else await tx.addons.deleteDelivery(addonId, r.attempt.eventId);
      }
      return true;
    });
  }

  /**
   * Works through the queue until it is empty, waits on backoff, or the lease is lost. Successes are
   * recorded in batches (a crash before a batch is recorded sends those events again: at least
   * once); a failure is recorded at once, with the successes before it.
   */
  async function drain(): Promise<void> {
    const done: Result[] = [];
    const flush = () => record(done.splice(0));
    try {
      for (;;) {
        if (stopped || !(await ctx.hold())) return;
        const addon = await store.addons.get(addonId);
        const provider = addon && ADDON_PROVIDERS.get(addon.provider);
        if (!addon?.enabled || !provider) return;
        const queue = await store.addons.listDeliveries(addonId, 'pending', ctx.policy.batchSize);
        if (queue.length === 0) return;
        const secrets = provider.signed
          ? activeSecrets(await store.addons.getSigningSecrets(addonId), ctx.codec, now())
          : [];
        for (const d of queue) {
          if (stopped || !(await ctx.hold())) return;
          if (d.nextAttemptAt > now()) {
            wakeAt(d.nextAttemptAt);
            return;
          }
          const attempt = d.attempts + 1;
          const event = await ctx.event(d.eventId);
          const outcome: Outcome = event
            ? await send(addon, provider, event, attempt, secrets)
            : {
                ok: false,
                statusCode: null,
                durationMs: 0,
                error: 'the event is no longer in the log',
                final: true,
              };
          const at = now();
          const next = outcome.ok ? null : afterFailure(d, outcome, at, ctx.policy);
          done.push({
            next,
            attempt: {
              addonId,
              eventId: d.eventId,
              attempt,
              statusCode: outcome.statusCode,
              durationMs: outcome.durationMs,
              error: outcome.error,
              createdAt: new Date(at).toISOString(),
            },
          });
          if (!next) {
            if (done.length >= RECORD_BATCH && !(await flush())) return;
            continue;
          }
          if (!(await flush())) return;
          const fields = {
            addonId,
            provider: addon.provider,
            eventId: d.eventId,
            attempts: attempt,
            failure: outcome.error,
          };
          if (next.state === 'parked') {
            logger.warn('addon delivery gave up on an event and parked it', fields);
            continue;
          }
          if (attempt === 1) logger.warn('addon delivery failed; retrying with backoff', fields);
          wakeAt(next.nextAttemptAt);
          return;
        }
        if (!(await flush())) return;
        if (queue.length < ctx.policy.batchSize) return;
      }
    } finally {
      await flush();
    }
  }

  /** Runs the worker now (or once more after the current run); resolves when it is idle. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    running = (async () => {
      ctx.busy(1);
      try {
        do {
          again = false;
          await drain();
        } while (again && !stopped);
      } catch (error) {
        logger.error('addon delivery failed', { addonId, error: String(error) });
        wakeAt(now() + ctx.policy.baseDelayMs);
      } finally {
        ctx.busy(-1);
        running = null;
      }
    })();
    return running;
  }

  return {
    kick,
    /** Stops retries and waits for the attempt under way. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export type AddonWorker = ReturnType<typeof createAddonWorker>;
