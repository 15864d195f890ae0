import { z } from 'zod';
import { projectModeSchema } from './project.js';
import { strategyConfigViewSchema } from './strategy.js';

const count = z.number().int();

/** DORA lead time to production: the project's average and each release feature's, in days. */
export const doraMetricsSchema = z.strictObject({
  projectAverage: z.number(),
  features: z.array(z.strictObject({ name: z.string(), timeToProduction: z.number() })),
});
export type DoraMetrics = z.infer<typeof doraMetricsSchema>;

/** GET /api/admin/insights: users, flags and weekly trends over the projects the caller may see. */
export const instanceInsightsSchema = z.strictObject({
  users: z.strictObject({ total: count, active: count, inactive: count }),
  flags: z.strictObject({ total: count }),
  userTrends: z.array(z.strictObject({ date: z.string(), total: count, active: count, inactive: count })),
  flagTrends: z.array(
    z.strictObject({
      date: z.string(),
      total: count,
      active: count,
      stale: count,
      potentiallyStale: count,
    }),
  ),
  projectFlagTrends: z.array(
    z.strictObject({
      week: z.string(),
      project: z.string(),
      health: z.number().optional(),
      timeToProduction: z.number().optional(),
      date: z.string(),
      total: count,
      active: count,
      stale: count,
      potentiallyStale: count,
      users: count.optional(),
    }),
  ),
  metricsSummaryTrends: z.array(
    z.strictObject({
      week: z.string(),
      date: z.string(),
      project: z.string(),
      totalRequests: count,
      totalYes: count,
      totalNo: count,
      totalApps: count,
      totalFlags: count,
      totalEnvironments: count,
    }),
  ),
  environmentTypeTrends: z.array(
    z.strictObject({ date: z.string(), week: z.string(), environmentType: z.string(), totalUpdates: count }),
  ),
});
export type InstanceInsights = z.infer<typeof instanceInsightsSchema>;

/** GET /api/admin/projects/:projectId/overview: windows of activity, members, health, environments. */
export const projectOverviewSchema = z.strictObject({
  stats: z.strictObject({
    avgTimeToProdCurrentWindow: z.number(),
    createdCurrentWindow: count,
    createdPastWindow: count,
    archivedCurrentWindow: count,
    archivedPastWindow: count,
    projectActivityCurrentWindow: count,
    projectActivityPastWindow: count,
    projectMembersAddedCurrentWindow: count,
  }),
  version: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: projectModeSchema,
  featureLimit: count.nullable(),
  featureNaming: z.strictObject({
    pattern: z.string().nullable(),
    example: z.string().nullable(),
    description: z.string().nullable(),
  }),
  members: count,
  health: z.number(),
  environments: z.array(
    z.strictObject({
      environment: z.string(),
      changeRequestsEnabled: z.boolean(),
      defaultStrategy: strategyConfigViewSchema.optional(),
    }),
  ),
  featureTypeCounts: z.array(z.strictObject({ type: z.string(), count })),
  updatedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  favorite: z.boolean(),
});

/** GET /api/admin/environments/project/:projectId: the project's environments with their counts. */
export const projectEnvironmentsSchema = z.strictObject({
  version: z.literal(1),
  environments: z.array(
    z.strictObject({
      name: z.string(),
      type: z.string(),
      enabled: z.boolean(),
      protected: z.boolean(),
      sortOrder: z.number(),
      projectApiTokenCount: count,
      projectEnabledToggleCount: count,
      changeRequestsEnabled: z.boolean(),
      defaultStrategy: strategyConfigViewSchema.optional(),
    }),
  ),
});

/** Days a feature type lives before it is potentially stale (null: never). */
export const FEATURE_TYPE_LIFETIME_DAYS: Readonly<Record<string, number | null>> = {
  release: 40,
  experiment: 40,
  operational: 7,
  'kill-switch': null,
  permission: null,
};
