import { z } from 'zod';

const count = z.number().int().min(0);

/** One feature's counts in an SDK bucket; SDKs leave out `yes` or `no` when it is zero. */
export const toggleCountsSchema = z.object({
  yes: count.default(0),
  no: count.default(0),
  variants: z.record(z.string(), count).optional(),
});

/** `POST /api/client/metrics` and `/api/frontend/client/metrics` (what unleash-client and unleash-proxy-client send). */
export const clientMetricsSchema = z.object({
  appName: z.string().min(1),
  instanceId: z.string().optional(),
  environment: z.string().optional(),
  bucket: z.object({
    start: z.iso.datetime({ offset: true }).or(z.string()),
    // The browser SDK may close a bucket without a stop time.
    stop: z.iso.datetime({ offset: true }).or(z.string()).nullish(),
    toggles: z.record(z.string(), toggleCountsSchema),
  }),
});
export type ClientMetricsInput = z.output<typeof clientMetricsSchema>;

export const clientRegistrationSchema = z.object({
  appName: z.string().min(1),
  instanceId: z.string().optional(),
  sdkVersion: z.string().optional(),
  environment: z.string().optional(),
  strategies: z.array(z.string()).default([]),
  started: z.string().optional(),
  interval: z.number().optional(),
});

/** One application of `POST /api/client/metrics/bulk` (Unleash Edge's bulkRegistrationSchema). */
export const bulkRegistrationSchema = clientRegistrationSchema.extend({
  instanceId: z.string().min(1),
  environment: z.string().min(1),
  sdkType: z.enum(['frontend', 'backend']).nullish(),
  connectVia: z.array(z.object({ appName: z.string(), instanceId: z.string() })).optional(),
});

/** One feature's counts of `POST /api/client/metrics/bulk` (Unleash's clientMetricsEnvSchema). */
export const clientMetricsEnvSchema = z.object({
  featureName: z.string().min(1),
  appName: z.string().min(1),
  environment: z.string().min(1),
  timestamp: z.string().nullish(),
  yes: count,
  no: count,
  variants: z.record(z.string(), count).optional(),
});

/** `POST /api/client/metrics/bulk`: what Unleash Edge forwards from the SDKs behind it. */
export const bulkMetricsSchema = z.object({
  applications: z.array(bulkRegistrationSchema),
  metrics: z.array(clientMetricsEnvSchema),
});
export type BulkMetricsInput = z.output<typeof bulkMetricsSchema>;

/** One feature's counts for one hour, environment and application. */
export interface MetricsBucket {
  featureName: string;
  appName: string;
  environment: string;
  /** Start of the hour, RFC 3339. */
  timestamp: string;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

export interface ClientApplication {
  appName: string;
  instanceId: string;
  sdkVersion: string | null;
  environment: string;
  strategies: string[];
  lastSeen: string;
}

/** A feature name SDKs reported metrics for that no feature (live or archived) has. */
export interface UnknownFlag {
  name: string;
  appName: string;
  environment: string;
  /** When it was last reported, RFC 3339. */
  lastSeenAt: string;
}
