import { z } from 'zod';

/** `POST /api/admin/maintenance`: turn maintenance mode on or off. */
export const maintenanceInputSchema = z.object({ enabled: z.boolean() });

/** Whether maintenance mode is on. */
export const maintenanceStateSchema = z.strictObject({ enabled: z.boolean() });
export type MaintenanceStateView = z.infer<typeof maintenanceStateSchema>;

/** `*`, or origins such as `https://shop.example` (scheme, host and port; no path). */
export const frontendOriginsSchema = z.object({
  frontendApiOrigins: z
    .array(
      z.string().refine((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o), {
        message: 'must be "*" or an origin such as https://shop.example (no path)',
      }),
    )
    .max(100, 'must list at most 100 origins'),
});

/** `GET /health` and `GET /ready`. */
export const healthSchema = z.strictObject({ health: z.literal('GOOD') });
export type Health = z.infer<typeof healthSchema>;

/** `GET /api/admin/ui-config`: what UIs and tools read about the instance. */
export const uiConfigSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  slogan: z.string(),
  environment: z.string(),
  baseUriPath: z.string(),
  unleashUrl: z.string(),
  authenticationType: z.string(),
  disablePasswordAuth: z.boolean(),
  emailEnabled: z.boolean(),
  maintenanceMode: z.boolean(),
  frontendApiOrigins: z.array(z.string()),
  segmentValuesLimit: z.number().int(),
  strategySegmentsLimit: z.number().int(),
  versionInfo: z.strictObject({
    current: z.strictObject({ oss: z.string() }),
    latest: z.strictObject({ oss: z.string().optional() }),
    isLatest: z.boolean(),
  }),
  flags: z.record(z.string(), z.boolean()),
  links: z.array(z.strictObject({ value: z.string(), href: z.string(), title: z.string().optional() })),
});
export type UiConfig = z.infer<typeof uiConfigSchema>;

/** `GET /api/admin/instance-admin/statistics`: counts of what the instance holds. */
export const instanceStatisticsSchema = z.strictObject({
  instanceId: z.string(),
  versionOSS: z.string(),
  timestamp: z.string(),
  users: z.number().int(),
  serviceAccounts: z.number().int(),
  featureToggles: z.number().int(),
  projects: z.number().int(),
  contextFields: z.number().int(),
  roles: z.number().int(),
  groups: z.number().int(),
  environments: z.number().int(),
  segments: z.number().int(),
  strategies: z.number().int(),
  tagTypes: z.number().int(),
  clientApps: z.array(z.strictObject({ range: z.string(), count: z.number().int() })),
  featureExports: z.number().int(),
  featureImports: z.number().int(),
});
export type InstanceStatistics = z.infer<typeof instanceStatisticsSchema>;
