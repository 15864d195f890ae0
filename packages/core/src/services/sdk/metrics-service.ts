import type { Caller } from '../../auth/caller.js';
import {
  type BulkMetricsInput,
  bulkMetricsSchema,
  type ClientApplication,
  clientRegistrationSchema,
  type MetricsBucket,
  type UnknownFlag,
} from '../../domain/metrics.js';
import { readClientMetrics } from '../../domain/metrics-input.js';
import { parseWith } from '../../domain/parse.js';
import { FlagstaffError } from '../../errors.js';
import { nowIso, type ServiceDeps } from '../deps.js';
import { createMetricsAggregator, type PendingBucket } from './metrics-aggregator.js';
import { UNKNOWN_FLAG_RETENTION_MS, writeBatch } from './metrics-flush.js';

/** How SDK metrics are batched and bounded. */
export interface MetricsOptions {
  /** How often pending metrics are written (default 5000 ms); 0 writes only on `flush()`/close. */
  flushIntervalMs?: number;
  /** Most features one SDK bucket may report (default 1000). */
  maxTogglesPerBucket?: number;
  /** Most entries (metrics plus applications) one bulk request may carry (default 10000). */
  maxBulkEntries?: number;
  /** Pending keys past which a flush starts at once instead of waiting for the timer (default 50000). */
  maxPendingKeys?: number;
}

/** The SDK-facing API a report came through: server-side SDKs, or frontend SDKs. */
export type SdkAudience = 'client' | 'frontend';

const HOUR_MS = 3_600_000;
const UNKNOWN_FLAGS_LISTED = 1000;

/** The start of the UTC hour holding `iso` (now when it is not a date). */
function hourOf(iso: string | null | undefined, now: Date): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  const ms = Number.isNaN(t) ? now.getTime() : t;
  return new Date(ms - (ms % HOUR_MS)).toISOString();
}

/** The environment metrics count for: the token's, unless it is an all-environments token. */
const metricsEnvironment = (tokenEnvironment: string, given: string | undefined): string =>
  tokenEnvironment !== '*' ? tokenEnvironment : (given ?? 'default');

const isEmpty = (record: Readonly<Record<string, number>>): boolean => {
  for (const _ in record) return false;
  return true;
};

const tooMany = (path: string, count: number, limit: number): FlagstaffError =>
  new FlagstaffError('LIMIT_EXCEEDED', `"${path}" has ${count} entries; at most ${limit} are accepted.`, {
    path,
    limit,
  });

/**
 * SDK registrations and usage metrics. These are high-volume telemetry, not commands: they write no
 * events, and they are added up in memory and written every `flushIntervalMs` in one transaction
 * (and on `stop`), so a crash loses at most one interval of them. Reads flush first, so a process
 * reads its own reports.
 */
export function createMetricsService(deps: ServiceDeps, options: MetricsOptions = {}) {
  const { store, logger } = deps;
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxToggles = options.maxTogglesPerBucket ?? 1000;
  const maxBulk = options.maxBulkEntries ?? 10_000;
  const maxPending = options.maxPendingKeys ?? 50_000;
  const pending = createMetricsAggregator();
  let lastPrune = 0;

  // Flushes run one after another: a flush that starts while one runs waits for it, then writes
  // what arrived meanwhile.
  let queue: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const run = queue.then(async () => {
      if (pending.size === 0) return;
      const batch = pending.take();
      const now = deps.clock.now().getTime();
      try {
        await store.transaction(async (tx) => {
          await writeBatch(tx, batch);
          if (now - lastPrune > HOUR_MS) {
            await tx.metrics.deleteUnknownFlagsSeenBefore(
              new Date(now - UNKNOWN_FLAG_RETENTION_MS).toISOString(),
            );
          }
        });
        if (now - lastPrune > HOUR_MS) lastPrune = now;
      } catch (error) {
        // Kept for the next flush rather than lost; the store may be back by then.
        pending.restore(batch);
        throw error;
      }
    });
    queue = run.catch(() => {});
    return run;
  }

  const flushInBackground = () =>
    flush().catch((error: unknown) =>
      logger.error('metrics flush failed; the counts stay pending for the next one', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );

  let timer: ReturnType<typeof setInterval> | undefined;
  if (flushIntervalMs > 0) {
    timer = setInterval(flushInBackground, flushIntervalMs);
    // Pending metrics never keep a process alive on their own: close() flushes them.
    timer.unref?.();
  }

  /**
   * The environment a caller reports for, once the policy let it report on the API it came
   * through: its token's, or `*` (the report names one) for Flagstaff itself and unauthenticated hosts.
   */
  async function reportingEnvironment(caller: Caller, audience: SdkAudience): Promise<string> {
    await deps.policy.require(caller, 'NONE', {}, audience);
    return caller.principal.kind === 'api-token' ? caller.principal.environment : '*';
  }

  function afterAdding(): void {
    if (pending.size >= maxPending) void flushInBackground();
  }

  function add(bucket: PendingBucket): void {
    // Empty entries would only add zero rows.
    if (bucket.yes + bucket.no === 0 && isEmpty(bucket.variants)) return;
    pending.add(bucket);
  }

  function application(
    body: {
      appName: string;
      instanceId?: string | undefined;
      sdkVersion?: string | undefined;
      strategies: string[];
    },
    environment: string,
    lastSeen: string,
  ): ClientApplication {
    return {
      appName: body.appName,
      instanceId: body.instanceId ?? 'default',
      sdkVersion: body.sdkVersion ?? null,
      environment,
      strategies: body.strategies,
      lastSeen,
    };
  }

  return {
    /** POST /api/client/register (and the frontend one): records the application instance. */
    async register(
      caller: Caller,
      input: unknown,
      audience: SdkAudience = 'client',
    ): Promise<ClientApplication> {
      const tokenEnvironment = await reportingEnvironment(caller, audience);
      const body = parseWith(clientRegistrationSchema, input);
      const app = application(body, metricsEnvironment(tokenEnvironment, body.environment), nowIso(deps));
      pending.register(app);
      afterAdding();
      return app;
    },

    /**
     * POST /api/client/metrics (and the frontend one): adds the counts to hourly buckets and
     * lastSeenAt to the feature environments used, in memory until the next flush. Returns the
     * buckets added.
     */
    async recordMetrics(
      caller: Caller,
      input: unknown,
      audience: SdkAudience = 'client',
    ): Promise<MetricsBucket[]> {
      const tokenEnvironment = await reportingEnvironment(caller, audience);
      const body = readClientMetrics(input);
      const { toggles } = body.bucket;
      const names = Object.keys(toggles);
      if (names.length > maxToggles) throw tooMany('bucket.toggles', names.length, maxToggles);
      const now = deps.clock.now();
      const lastSeenAt = now.toISOString();
      const environment = metricsEnvironment(tokenEnvironment, body.environment);
      const timestamp = hourOf(body.bucket.start, now);
      const added: PendingBucket[] = [];
      for (const featureName of names) {
        const { yes, no, variants = {} } = toggles[featureName]!;
        // Empty entries would only add zero rows.
        if (yes + no === 0 && isEmpty(variants)) continue;
        added.push({
          featureName,
          appName: body.appName,
          environment,
          timestamp,
          yes,
          no,
          variants,
          lastSeenAt,
        });
      }
      pending.addReport(body.appName, environment, timestamp, added);
      afterAdding();
      return added;
    },

    /**
     * POST /api/client/metrics/bulk (Unleash Edge): registrations and per-feature counts of many
     * applications. A token bound to one environment only reports for it: entries for other
     * environments are left out.
     */
    async recordBulk(caller: Caller, input: unknown): Promise<{ applications: number; metrics: number }> {
      const tokenEnvironment = await reportingEnvironment(caller, 'client');
      const body: BulkMetricsInput = parseWith(bulkMetricsSchema, input);
      const entries = body.applications.length + body.metrics.length;
      if (entries > maxBulk) throw tooMany('applications+metrics', entries, maxBulk);
      const allowed = (environment: string) => tokenEnvironment === '*' || environment === tokenEnvironment;
      const now = deps.clock.now();
      const lastSeenAt = now.toISOString();
      let applications = 0;
      for (const app of body.applications) {
        if (!allowed(app.environment)) continue;
        pending.register(application(app, app.environment, lastSeenAt));
        applications++;
      }
      let metrics = 0;
      for (const m of body.metrics) {
        if (!allowed(m.environment)) continue;
        add({
          featureName: m.featureName,
          appName: m.appName,
          environment: m.environment,
          timestamp: hourOf(m.timestamp, now),
          yes: m.yes,
          no: m.no,
          variants: m.variants ?? {},
          lastSeenAt,
        });
        metrics++;
      }
      afterAdding();
      return { applications, metrics };
    },

    /** Writes everything pending now, in one transaction; rejects (keeping it pending) when the store fails. */
    flush,

    /** Stops the timer and writes what is pending: the first step of a graceful shutdown. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },

    /** Buckets from `since` (RFC 3339) on, oldest first: the input of insights and usage views. */
    async bucketsSince(caller: Caller, since: string): Promise<MetricsBucket[]> {
      await deps.policy.require(caller, 'NONE', {});
      await flush();
      return store.metrics.listBuckets(since);
    },

    /** Registered application instances. */
    async applications(caller: Caller): Promise<ClientApplication[]> {
      await deps.policy.require(caller, 'NONE', {});
      await flush();
      return store.metrics.listApplications();
    },

    /**
     * Feature names SDKs reported that no feature has, most recently seen first (at most 1000; each
     * is forgotten a week after its last report). A name that became a feature since is left out.
     */
    async unknownFlags(caller: Caller): Promise<UnknownFlag[]> {
      await deps.policy.require(caller, 'NONE', {});
      await flush();
      const flags = await store.metrics.listUnknownFlags(UNKNOWN_FLAGS_LISTED);
      if (flags.length === 0) return [];
      const names = [...new Set(flags.map((f) => f.name))];
      const existing = new Set((await store.features.list({ names })).map((f) => f.name));
      return flags.filter((f) => !existing.has(f.name));
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
