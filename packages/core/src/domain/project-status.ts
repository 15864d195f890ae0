import { z } from 'zod';
import { featureNamingViewSchema, projectModeSchema } from './project.js';
import { strategyConfigViewSchema } from './strategy.js';

// The answers of the project views beyond the overview: flag creators, applications, status,
// health report and insights.

/** GET /projects/:p/flag-creators. */
export const projectFlagCreatorsSchema = z.array(z.strictObject({ id: z.number(), name: z.string() }));

/** GET /projects/:p/applications. */
export const projectApplicationsSchema = z.strictObject({
  applications: z.array(
    z.strictObject({
      name: z.string(),
      environments: z.array(z.string()),
      instances: z.array(z.string()),
      sdks: z.array(z.strictObject({ name: z.string(), versions: z.array(z.string()) })),
    }),
  ),
  total: z.number(),
});

const stageSummary = z.strictObject({ currentFlags: z.number(), averageDays: z.number().nullable() });

/** GET /projects/:p/status. */
export const projectStatusSchema = z.strictObject({
  activityCountByDate: z.array(z.strictObject({ date: z.string(), count: z.number() })),
  resources: z.strictObject({ members: z.number(), apiTokens: z.number(), segments: z.number() }),
  health: z.strictObject({ current: z.number() }),
  lifecycleSummary: z.strictObject({
    initial: stageSummary,
    preLive: stageSummary,
    live: stageSummary,
    completed: stageSummary,
    archived: stageSummary,
  }),
  staleFlags: z.strictObject({ total: z.number() }),
});

const projectStatsSchema = z.strictObject({
  avgTimeToProdCurrentWindow: z.number(),
  createdCurrentWindow: z.number(),
  createdPastWindow: z.number(),
  archivedCurrentWindow: z.number(),
  archivedPastWindow: z.number(),
  projectActivityCurrentWindow: z.number(),
  projectActivityPastWindow: z.number(),
  projectMembersAddedCurrentWindow: z.number(),
});
const featureTypeCountsSchema = z.array(z.strictObject({ type: z.string(), count: z.number() }));

/** GET /projects/:p/health-report: the project's overview with staleness counts. */
export const projectHealthReportSchema = z.strictObject({
  stats: projectStatsSchema,
  version: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: projectModeSchema,
  featureLimit: z.number().nullable(),
  featureNaming: featureNamingViewSchema,
  members: z.number(),
  health: z.number(),
  environments: z.array(
    z.strictObject({
      environment: z.string(),
      changeRequestsEnabled: z.boolean(),
      defaultStrategy: strategyConfigViewSchema.optional(),
    }),
  ),
  featureTypeCounts: featureTypeCountsSchema,
  updatedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  favorite: z.boolean(),
  activeCount: z.number(),
  staleCount: z.number(),
  potentiallyStaleCount: z.number(),
});

/** GET /projects/:p/insights: stats, type counts, lead time (DORA), health and members. */
export const projectInsightsSchema = z.strictObject({
  stats: projectStatsSchema,
  featureTypeCounts: featureTypeCountsSchema,
  leadTime: z.strictObject({
    projectAverage: z.number(),
    features: z.array(z.strictObject({ name: z.string(), timeToProduction: z.number() })),
  }),
  health: z.strictObject({
    rating: z.number(),
    activeCount: z.number(),
    potentiallyStaleCount: z.number(),
    staleCount: z.number(),
  }),
  members: z.strictObject({ currentMembers: z.number() }),
});
