import {
  type ClientApplication,
  clientMetricsSchema,
  clientRegistrationSchema,
  type MetricsBucket,
} from '../domain/metrics.js';
import { parseWith } from '../domain/parse.js';
import { nowIso, type ServiceDeps } from './deps.js';

const HOUR_MS = 3_600_000;

/** The start of the UTC hour holding `iso` (now when it is not a date). */
function hourOf(iso: string, now: Date): string {
  const t = Date.parse(iso);
  const ms = Number.isNaN(t) ? now.getTime() : t;
  return new Date(ms - (ms % HOUR_MS)).toISOString();
}

/** The environment metrics count for: the token's, unless it is an all-environments token. */
const metricsEnvironment = (tokenEnvironment: string, given: string | undefined): string =>
  tokenEnvironment !== '*' ? tokenEnvironment : (given ?? 'default');

/**
 * SDK registrations and usage metrics. These are high-volume telemetry, not commands: they write no
 * events (the reference's client-register/client-metrics types are not written per request).
 */
export function createMetricsService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    /** POST /api/client/register: inserts or refreshes the application instance. */
    async register(input: unknown, tokenEnvironment = '*'): Promise<ClientApplication> {
      const body = parseWith(clientRegistrationSchema, input);
      const app: ClientApplication = {
        appName: body.appName,
        instanceId: body.instanceId ?? 'default',
        sdkVersion: body.sdkVersion ?? null,
        environment: metricsEnvironment(tokenEnvironment, body.environment),
        strategies: body.strategies,
        lastSeen: nowIso(deps),
      };
      await store.transaction((tx) => tx.metrics.upsertApplication(app));
      return app;
    },

    /**
     * POST /api/client/metrics: adds the counts to hourly buckets and stamps lastSeenAt on the
     * feature environments used. Returns the buckets added.
     */
    async recordMetrics(tokenEnvironment: string, input: unknown): Promise<MetricsBucket[]> {
      const body = parseWith(clientMetricsSchema, input);
      const now = deps.clock.now();
      const environment = metricsEnvironment(tokenEnvironment, body.environment);
      const timestamp = hourOf(body.bucket.start, now);
      const buckets: MetricsBucket[] = [];
      for (const [featureName, counts] of Object.entries(body.bucket.toggles)) {
        const variants = counts.variants ?? {};
        // Empty entries would only add zero rows.
        if (counts.yes + counts.no === 0 && Object.keys(variants).length === 0) continue;
        buckets.push({
          featureName,
          appName: body.appName,
          environment,
          timestamp,
          yes: counts.yes,
          no: counts.no,
          variants,
        });
      }
      if (buckets.length === 0) return [];
      const seen = buckets
        .filter((b) => b.yes + b.no > 0)
        .map((b) => ({ featureName: b.featureName, environment }));
      await store.transaction(async (tx) => {
        await tx.metrics.addBuckets(buckets);
        if (seen.length > 0) await tx.featureEnvironments.markSeen(seen, now.toISOString());
      });
      return buckets;
    },

    /** Buckets from `since` (RFC 3339) on, oldest first: the input of insights and usage views. */
    bucketsSince: (since: string): Promise<MetricsBucket[]> => store.metrics.listBuckets(since),

    /** Registered application instances. */
    applications: (): Promise<ClientApplication[]> => store.metrics.listApplications(),
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
