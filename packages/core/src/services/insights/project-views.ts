import type { Caller } from '../../auth/caller.js';
import { LIFECYCLE_STAGES } from '../../domain/feature.js';
import type { ServiceDeps } from '../deps.js';
import { requireProject } from '../projects/project-service.js';
import { countStaleness, featureTypeLifetimes, healthScore } from './health.js';
import type { InsightsService } from './insights-service.js';

const DAY = 86_400_000;
const lifecycleKey = {
  initial: 'initial',
  'pre-live': 'preLive',
  live: 'live',
  completed: 'completed',
  archived: 'archived',
} as const;

/**
 * The reference's project views beyond the overview: who created flags, which applications use the
 * project's features, the status page (activity, resources, health, lifecycle summary), the health
 * report and the insights page.
 */
export function createProjectViews(deps: ServiceDeps, insights: InsightsService) {
  const { store } = deps;

  async function open(caller: Caller, projectId: string) {
    await deps.policy.require(caller, 'NONE', { project: projectId });
    return requireProject(store, projectId);
  }

  return {
    /** GET /projects/:p/flag-creators: who created the project's features. */
    async flagCreators(caller: Caller, projectId: string): Promise<{ id: number; name: string }[]> {
      await open(caller, projectId);
      const events = await store.events.search({ type: 'feature-created', project: projectId });
      const byName = new Map<string, number>();
      for (const e of events) if (!byName.has(e.createdBy)) byName.set(e.createdBy, e.createdByUserId ?? 0);
      return [...byName].map(([name, id]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    },

    /** GET /projects/:p/applications: applications that reported the project's features (48 h). */
    async applications(caller: Caller, projectId: string) {
      await open(caller, projectId);
      const features = new Set((await store.features.list({ project: projectId })).map((f) => f.name));
      const since = new Date(deps.clock.now().getTime() - 2 * DAY).toISOString();
      const apps = new Map<string, Set<string>>();
      for (const b of await store.metrics.listBuckets(since))
        if (features.has(b.featureName))
          apps.set(b.appName, (apps.get(b.appName) ?? new Set()).add(b.environment));
      const registrations = await store.metrics.listApplications();
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

    /** GET /projects/:p/status: 30 days of activity, resources, health, lifecycle summary, stale flags. */
    async status(caller: Caller, projectId: string) {
      await open(caller, projectId);
      const now = deps.clock.now().getTime();
      const since = new Date(now - 365 * DAY).toISOString();
      const activity = new Map<string, number>();
      for (const e of await store.events.search({ project: projectId, createdAfter: since }))
        activity.set(e.createdAt.slice(0, 10), (activity.get(e.createdAt.slice(0, 10)) ?? 0) + 1);
      const features = await store.features.list({ project: projectId });
      const live = features.filter((f) => !f.archivedAt);
      const members = new Set(
        (await store.projectAccess.list(projectId)).map((a) => `${a.userId ?? ''}:${a.groupId ?? ''}`),
      );
      const tokens = (await store.apiTokens.list()).filter((t) => t.projects.includes(projectId));
      const segments = (await store.segments.list()).filter((s) => s.project === projectId);
      const lifecycleSummary = Object.fromEntries(
        LIFECYCLE_STAGES.map((stage) => {
          const here = features.filter((f) => (f.archivedAt ? 'archived' : f.lifecycle.stage) === stage);
          const days = here.map((f) => (now - Date.parse(f.lifecycle.enteredStageAt)) / DAY);
          return [
            lifecycleKey[stage],
            {
              currentFlags: here.length,
              averageDays: days.length ? Math.round(days.reduce((a, b) => a + b, 0) / days.length) : null,
            },
          ];
        }),
      );
      return {
        activityCountByDate: [...activity]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, count]) => ({ date, count })),
        resources: { members: members.size, apiTokens: tokens.length, segments: segments.length },
        health: {
          current: healthScore(countStaleness(live, now, await featureTypeLifetimes(store.settings))),
        },
        lifecycleSummary,
        staleFlags: { total: live.filter((f) => f.stale).length },
      };
    },

    /** GET /projects/:p/health-report: the overview with staleness counts. */
    async healthReport(caller: Caller, projectId: string) {
      const overview = await insights.overview(caller, projectId);
      const now = deps.clock.now().getTime();
      const live = await store.features.list({ project: projectId, archived: false });
      const counts = countStaleness(live, now, await featureTypeLifetimes(store.settings));
      return {
        ...overview,
        health: healthScore(counts),
        activeCount: counts.total - counts.stale - counts.potentiallyStale,
        staleCount: counts.stale,
        potentiallyStaleCount: counts.potentiallyStale,
      };
    },

    /** GET /projects/:p/insights: stats, type counts, lead time (DORA), health and members. */
    async insights(caller: Caller, projectId: string) {
      const overview = await insights.overview(caller, projectId);
      const dora = await insights.dora(caller, projectId);
      const live = await store.features.list({ project: projectId, archived: false });
      const counts = countStaleness(
        live,
        deps.clock.now().getTime(),
        await featureTypeLifetimes(store.settings),
      );
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
  };
}

export type ProjectViews = ReturnType<typeof createProjectViews>;
