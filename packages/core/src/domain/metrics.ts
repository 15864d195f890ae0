import { z } from 'zod';

export const clientMetricsSchema = z.object({
  appName: z.string().min(1),
  instanceId: z.string().optional(),
  environment: z.string().optional(),
  bucket: z.object({
    start: z.iso.datetime({ offset: true }).or(z.string()),
    stop: z.iso.datetime({ offset: true }).or(z.string()),
    toggles: z.record(
      z.string(),
      z.object({
        yes: z.number().int().min(0).default(0),
        no: z.number().int().min(0).default(0),
        variants: z.record(z.string(), z.number().int().min(0)).optional(),
      }),
    ),
  }),
});

export const clientRegistrationSchema = z.object({
  appName: z.string().min(1),
  instanceId: z.string().optional(),
  sdkVersion: z.string().optional(),
  environment: z.string().optional(),
  strategies: z.array(z.string()).default([]),
  started: z.string().optional(),
  interval: z.number().optional(),
});

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
