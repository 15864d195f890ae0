import { z } from 'zod';

/** An application's details an admin sets (POST /api/admin/metrics/applications/:appName). */
export const applicationMetaSchema = z.object({
  description: z.string().max(1000, 'must be at most 1000 characters').optional(),
  url: z.url('must be a URL').optional(),
  color: z.string().max(50, 'must be at most 50 characters').optional(),
  icon: z.string().max(100, 'must be at most 100 characters').optional(),
});
export type ApplicationMeta = z.infer<typeof applicationMetaSchema>;

/** `?hoursBack=` of a feature's raw metrics: 1 to 48 hours. */
export const rawMetricsQuerySchema = z.object({
  hoursBack: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(48, 'must be at most 48')
    .default(1),
});

/** The details as the application views answer them. */
const metaShape = {
  description: z.string().optional(),
  url: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
};

/** An instance as the reference's application views show it. */
export const applicationInstanceSchema = z.strictObject({
  instanceId: z.string(),
  sdkVersion: z.string().nullable(),
  environment: z.string(),
  lastSeen: z.string(),
  clientIp: z.null(),
});

export const applicationListSchema = z.strictObject({
  applications: z.array(
    z.strictObject({
      appName: z.string(),
      ...metaShape,
      usage: z.array(z.strictObject({ project: z.string(), environments: z.array(z.string()) })),
    }),
  ),
  total: z.number().int(),
});
export type ApplicationList = z.infer<typeof applicationListSchema>;

export const applicationDetailsSchema = z.strictObject({
  appName: z.string(),
  ...metaShape,
  strategies: z.array(z.string()),
  instances: z.array(applicationInstanceSchema),
  seenToggles: z.array(z.string()),
  links: z.strictObject({ self: z.string() }),
});
export type ApplicationDetails = z.infer<typeof applicationDetailsSchema>;

const missingFeaturesSchema = z.strictObject({ missingFeatures: z.array(z.string()) });

export const applicationOverviewSchema = z.strictObject({
  projects: z.array(z.string()),
  featureCount: z.number().int(),
  environments: z.array(
    z.strictObject({
      name: z.string(),
      instanceCount: z.number().int(),
      sdks: z.array(z.string()),
      lastSeen: z.string().nullable(),
      issues: missingFeaturesSchema,
    }),
  ),
  issues: missingFeaturesSchema,
});
export type ApplicationOverview = z.infer<typeof applicationOverviewSchema>;

export const applicationInstancesSchema = z.strictObject({ instances: z.array(applicationInstanceSchema) });
export type ApplicationInstances = z.infer<typeof applicationInstancesSchema>;

export const featureUsageSchema = z.strictObject({
  version: z.literal(1),
  maturity: z.literal('stable'),
  featureName: z.string(),
  lastHourUsage: z.array(
    z.strictObject({ environment: z.string(), timestamp: z.string(), yes: z.number(), no: z.number() }),
  ),
  seenApplications: z.array(z.string()),
});
export type FeatureUsage = z.infer<typeof featureUsageSchema>;

export const metricsBucketSchema = z.strictObject({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: z.string(),
  yes: z.number(),
  no: z.number(),
  variants: z.record(z.string(), z.number()),
});

export const featureRawMetricsSchema = z.strictObject({
  version: z.literal(1),
  maturity: z.literal('stable'),
  featureName: z.string(),
  data: z.array(metricsBucketSchema),
});
export type FeatureRawMetrics = z.infer<typeof featureRawMetricsSchema>;

export const outdatedSdksSchema = z.strictObject({
  sdks: z.array(z.strictObject({ sdkVersion: z.string(), applications: z.array(z.string()) })),
});
export type OutdatedSdks = z.infer<typeof outdatedSdksSchema>;

export const unknownFlagsSchema = z.strictObject({
  unknownFlags: z.array(
    z.strictObject({
      name: z.string(),
      appName: z.string(),
      environment: z.string(),
      lastSeenAt: z.string(),
      seenAt: z.string(),
    }),
  ),
});
export type UnknownFlags = z.infer<typeof unknownFlagsSchema>;
