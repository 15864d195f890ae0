import { z } from 'zod';
import { LIFECYCLE_STAGES } from '../../domain/feature.js';
import {
  projectApplicationsSchema,
  projectFlagCreatorsSchema,
  projectHealthReportSchema,
  projectInsightsSchema,
  projectStatusSchema,
} from '../../domain/project-status.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { countStaleness, featureTypeLifetimes, healthScore } from '../insights/health.js';
import { projectDora, projectOverview } from '../insights/insights-operations.js';
import { requireProject } from './project-records.js';

// The reference's project views beyond the overview: who created flags, which applications use the
// project's features, the status page (activity, resources, health, lifecycle summary), the health
// report and the insights page. Any caller who sees the project may read them.

const DAY = 86_400_000;
const lifecycleKey = {
  initial: 'initial',
  'pre-live': 'preLive',
  live: 'live',
  completed: 'completed',
  archived: 'archived',
} as const;

const input = z.object({ project: z.string() });
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** Staleness counts of the project's live features, now. */
async function staleness(repos: ReadRepositories, project: string, now: number) {
  const live = await repos.features.list({ project, archived: false });
  return countStaleness(live, now, await featureTypeLifetimes(repos.settings));
}

/** Who created the project's features (from their feature-created events), by name. */
export const listProjectFlagCreators = defineOperation({
  id: 'projects.flagCreators',
  summary: 'Who created the project’s features',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input,
  output: projectFlagCreatorsSchema,
  run: async ({ project }, { repos }) => {
    await requireProject(repos, project);
    const events = await repos.events.search({ type: 'feature-created', project });
    const byName = new Map<string, number>();
    for (const e of events) if (!byName.has(e.createdBy)) byName.set(e.createdBy, e.createdByUserId ?? 0);
    return [...byName].map(([name, id]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  },
});

/** Applications that reported the project's features in the last 48 hours, with their SDKs. */
export const listProjectApplications = defineOperation({
  id: 'projects.applications',
  summary: 'Applications that reported the project’s features',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input,
  output: projectApplicationsSchema,
  run: async ({ project }, { deps, repos }) => {
    await requireProject(repos, project);
    const features = new Set((await repos.features.list({ project })).map((f) => f.name));
    const since = new Date(deps.clock.now().getTime() - 2 * DAY).toISOString();
    const apps = new Map<string, Set<string>>();
    for (const b of await repos.metrics.listBuckets(since))
      if (features.has(b.featureName))
        apps.set(b.appName, (apps.get(b.appName) ?? new Set()).add(b.environment));
    const registrations = await repos.metrics.listApplications();
    const applications = [...apps]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, environments]) => {
        const instances = registrations.filter((r) => r.appName === name);
        const sdks = new Map<string, Set<string>>();
        for (const i of instances) {
          const [sdk, version] = (i.sdkVersion ?? 'unknown').split(':');
          sdks.set(sdk ?? 'unknown', (sdks.get(sdk ?? 'unknown') ?? new Set()).add(version ?? ''));
        }
        return {
          name,
          environments: [...environments].sort(),
          instances: instances.map((i) => i.instanceId),
          sdks: [...sdks].map(([sdk, versions]) => ({
            name: sdk,
            versions: [...versions].filter(Boolean).sort(),
          })),
        };
      });
    return { applications, total: applications.length };
  },
});

/** A year of activity by day, resources, health, lifecycle summary and stale flags. */
export const getProjectStatus = defineOperation({
  id: 'projects.status',
  summary: 'Activity, resources, health and lifecycle summary',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input,
  output: projectStatusSchema,
  run: async ({ project }, { deps, repos }) => {
    await requireProject(repos, project);
    const now = deps.clock.now().getTime();
    const since = new Date(now - 365 * DAY).toISOString();
    const activity = new Map<string, number>();
    for (const e of await repos.events.search({ project, createdAfter: since }))
      activity.set(e.createdAt.slice(0, 10), (activity.get(e.createdAt.slice(0, 10)) ?? 0) + 1);
    const features = await repos.features.list({ project });
    const live = features.filter((f) => !f.archivedAt);
    const members = new Set(
      (await repos.projectAccess.list(project)).map((a) => `${a.userId ?? ''}:${a.groupId ?? ''}`),
    );
    const tokens = (await repos.apiTokens.list()).filter((t) => t.projects.includes(project));
    const segments = (await repos.segments.list()).filter((s) => s.project === project);
    const summaryOf = (stage: (typeof LIFECYCLE_STAGES)[number]) => {
      const here = features.filter((f) => (f.archivedAt ? 'archived' : f.lifecycle.stage) === stage);
      const days = here.map((f) => (now - Date.parse(f.lifecycle.enteredStageAt)) / DAY);
      return {
        currentFlags: here.length,
        averageDays: days.length ? Math.round(days.reduce((a, b) => a + b, 0) / days.length) : null,
      };
    };
    const lifecycleSummary = Object.fromEntries(
      LIFECYCLE_STAGES.map((stage) => [lifecycleKey[stage], summaryOf(stage)]),
    ) as Record<(typeof lifecycleKey)[keyof typeof lifecycleKey], ReturnType<typeof summaryOf>>;
    return {
      activityCountByDate: [...activity]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, count]) => ({ date, count })),
      resources: { members: members.size, apiTokens: tokens.length, segments: segments.length },
      health: { current: healthScore(countStaleness(live, now, await featureTypeLifetimes(repos.settings))) },
      lifecycleSummary,
      staleFlags: { total: live.filter((f) => f.stale).length },
    };
  },
});

/** The project's overview with staleness counts. */
export const getProjectHealthReport = defineOperation({
  id: 'projects.healthReport',
  summary: 'The overview with staleness counts',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input,
  output: projectHealthReportSchema,
  run: async ({ project }, ctx) => {
    const { deps, repos } = ctx;
    const overview = await projectOverview.run({ project }, ctx);
    const counts = await staleness(repos, project, deps.clock.now().getTime());
    return {
      ...overview,
      health: healthScore(counts),
      activeCount: counts.total - counts.stale - counts.potentiallyStale,
      staleCount: counts.stale,
      potentiallyStaleCount: counts.potentiallyStale,
    };
  },
});

/** Stats, type counts, lead time (DORA), health and members of the project. */
export const getProjectInsights = defineOperation({
  id: 'projects.insights',
  summary: 'Stats, type counts, lead time, health and members',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input,
  output: projectInsightsSchema,
  run: async ({ project }, ctx) => {
    const { deps, repos } = ctx;
    const overview = await projectOverview.run({ project }, ctx);
    const dora = await projectDora.run({ project }, ctx);
    const counts = await staleness(repos, project, deps.clock.now().getTime());
    return {
      stats: overview.stats,
      featureTypeCounts: overview.featureTypeCounts,
      leadTime: dora,
      health: {
        rating: healthScore(counts),
        activeCount: counts.total - counts.stale - counts.potentiallyStale,
        potentiallyStaleCount: counts.potentiallyStale,
        staleCount: counts.stale,
      },
      members: { currentMembers: overview.members },
    };
  },
});

/** Every project view operation, for route tables and tools. */
export const projectStatusOperations = [
  listProjectFlagCreators,
  listProjectApplications,
  getProjectStatus,
  getProjectHealthReport,
  getProjectInsights,
] as const;
