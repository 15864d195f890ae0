import { type Caller, userIdOf } from '../../auth/caller.js';
import { seesProject, tokenReachesEnvironment, tokenReachesProject } from '../../auth/principal.js';
import type { EventType } from '../../domain/event.js';
import type { FeatureRecord } from '../../domain/feature.js';
import type { DoraMetrics, InstanceInsights } from '../../domain/insights.js';
import type { ProjectEnvironmentView, ProjectOverview } from '../../domain/project.js';
import type { ProjectRoleAssignment } from '../../domain/user.js';
import type { ReadRepositories } from '../../ports/store.js';
import type { ServiceDeps } from '../deps.js';
import { requireProject } from '../projects/project-service.js';
import { doraMetrics, productionArrivals } from './dora.js';
import { countStaleness, DAY_MS, featureTypeLifetimes, healthScore } from './health.js';
import { ACTIVE_USER_MS, computeTrends } from './insights-trends.js';
import { trendWeeks } from './insights-weeks.js';

const WINDOW_MS = 30 * DAY_MS;
const TREND_WEEKS = 12;

/** Events that change a feature's stale or archived state; trends roll back through them. */
const STATE_EVENT_TYPES: readonly EventType[] = [
  'feature-stale-on',
  'feature-stale-off',
  'feature-archived',
  'feature-revived',
];
/** Feature configuration changes inside an environment: the "updates" of environment type trends. */
const ENVIRONMENT_UPDATE_TYPES: readonly EventType[] = [
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-strategy-add',
  'feature-strategy-update',
  'feature-strategy-remove',
  'strategy-order-changed',
  'feature-environment-variants-updated',
];

const live = (features: readonly FeatureRecord[]): FeatureRecord[] =>
  features.filter((f) => f.archivedAt === null);

/** Members of groups, one read per group (groups are few; features and events are what grow). */
async function groupMembers(
  repos: ReadRepositories,
  assignments: readonly ProjectRoleAssignment[],
): Promise<Map<number, number[]>> {
  const ids = [...new Set(assignments.flatMap((a) => (a.groupId === null ? [] : [a.groupId])))];
  return new Map(await Promise.all(ids.map(async (id) => [id, await repos.groups.listUsers(id)] as const)));
}

/** Distinct users reached by the assignments, directly or through their groups. */
function usersOf(
  assignments: readonly ProjectRoleAssignment[],
  members: ReadonlyMap<number, readonly number[]>,
): Set<number> {
  const users = new Set<number>();
  for (const a of assignments) {
    if (a.userId !== null) users.add(a.userId);
    if (a.groupId !== null) for (const id of members.get(a.groupId) ?? []) users.add(id);
  }
  return users;
}

/** Read models: project overview and environments, health, DORA, instance insights. */
/** The environments of a project that require change requests. */
const guardedEnvironments = async (repos: ReadRepositories, project: string): Promise<Set<string>> =>
  new Set(
    (await repos.changeRequests.listSettings(project)).filter((s) => s.enabled).map((s) => s.environment),
  );

export function createInsightsService(deps: ServiceDeps) {
  const { store } = deps;

  /** Events of the type list after `since`, oldest first, one read per type. */
  const eventsOfTypes = async (types: readonly EventType[], since: number) =>
    (
      await Promise.all(
        types.map((type) =>
          store.events.search({ type, createdAfter: new Date(since - 1).toISOString(), ascending: true }),
        ),
      )
    )
      .flat()
      .sort((a, b) => a.id - b.id);

  return {
    /** Health (0–100) of a project's live features now. */
    async health(caller: Caller, projectId: string): Promise<number> {
      await deps.policy.require(caller, 'NONE', { project: projectId });
      await requireProject(store, projectId);
      const features = await store.features.list({ project: projectId, archived: false });
      return healthScore(
        countStaleness(features, deps.clock.now().getTime(), await featureTypeLifetimes(store.settings)),
      );
    },

    /** DORA lead time to production of the project's release features. */
    async dora(caller: Caller, projectId: string): Promise<DoraMetrics> {
      await deps.policy.require(caller, 'NONE', { project: projectId });
      await requireProject(store, projectId);
      return doraMetrics(store, projectId, await store.features.list({ project: projectId }));
    },

    /** GET /projects/:projectId/overview: stats windows, members, health, environments, type counts. */
    async overview(caller: Caller, projectId: string): Promise<ProjectOverview> {
      const userId = userIdOf(caller);
      await deps.policy.require(caller, 'NONE', { project: projectId });
      const project = await requireProject(store, projectId);
      const now = deps.clock.now().getTime();
      const currentStart = now - WINDOW_MS;
      const pastStart = now - 2 * WINDOW_MS;
      const iso = (ms: number) => new Date(ms).toISOString();
      const [features, links, assignments, favorites, activityCurrent, activityPast] = await Promise.all([
        store.features.list({ project: projectId }),
        store.environments.listForProject(projectId),
        store.projectAccess.list(projectId),
        userId != null ? store.favorites.list(userId) : Promise.resolve({ features: [], projects: [] }),
        // The store's date bounds are exclusive: windows are (start, end], like the feature counts below.
        store.events.count({ project: projectId, createdAfter: iso(currentStart) }),
        store.events.count({
          project: projectId,
          createdAfter: iso(pastStart),
          createdBefore: iso(currentStart + 1),
        }),
      ]);
      const guarded = await guardedEnvironments(store, projectId);
      const [members, dora] = await Promise.all([
        groupMembers(store, assignments),
        doraMetrics(store, projectId, features),
      ]);
      const inWindow = (at: string | null, start: number) =>
        at !== null && Date.parse(at) > start && Date.parse(at) <= start + WINDOW_MS;
      const count = (pick: (f: FeatureRecord) => string | null, start: number) =>
        features.filter((f) => inWindow(pick(f), start)).length;
      const previousUsers = usersOf(
        assignments.filter((a) => Date.parse(a.createdAt) <= currentStart),
        members,
      );
      const addedUsers = [
        ...usersOf(
          assignments.filter((a) => Date.parse(a.createdAt) > currentStart),
          members,
        ),
      ].filter((u) => !previousUsers.has(u));
      const liveFeatures = live(features);
      const typeCounts = new Map<string, number>();
      for (const f of liveFeatures) typeCounts.set(f.type, (typeCounts.get(f.type) ?? 0) + 1);
      return {
        stats: {
          avgTimeToProdCurrentWindow: dora.projectAverage,
          createdCurrentWindow: count((f) => f.createdAt, currentStart),
          createdPastWindow: count((f) => f.createdAt, pastStart),
          archivedCurrentWindow: count((f) => f.archivedAt, currentStart),
          archivedPastWindow: count((f) => f.archivedAt, pastStart),
          projectActivityCurrentWindow: activityCurrent,
          projectActivityPastWindow: activityPast,
          projectMembersAddedCurrentWindow: addedUsers.length,
        },
        version: 1,
        name: project.name,
        description: project.description,
        defaultStickiness: project.defaultStickiness,
        mode: project.mode,
        featureLimit: project.featureLimit,
        featureNaming: project.featureNaming,
        members: usersOf(assignments, members).size,
        health: healthScore(countStaleness(liveFeatures, now, await featureTypeLifetimes(store.settings))),
        environments: links.map((l) => ({
          environment: l.environment,
          changeRequestsEnabled: guarded.has(l.environment),
          ...(l.defaultStrategy ? { defaultStrategy: l.defaultStrategy } : {}),
        })),
        featureTypeCounts: [...typeCounts]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([type, n]) => ({ type, count: n })),
        updatedAt: project.updatedAt,
        createdAt: project.createdAt,
        favorite: favorites.projects.includes(projectId),
      };
    },

    /** GET /environments/project/:projectId: the project's environments with token and enabled-feature counts. */
    async projectEnvironments(
      caller: Caller,
      projectId: string,
    ): Promise<{ version: 1; environments: ProjectEnvironmentView[] }> {
      await deps.policy.require(caller, 'NONE', { project: projectId });
      await requireProject(store, projectId);
      const guarded = await guardedEnvironments(store, projectId);
      const [links, environments, tokens, enabled] = await Promise.all([
        store.environments.listForProject(projectId),
        store.environments.list(),
        store.apiTokens.list(),
        store.featureEnvironments.countEnabled(projectId),
      ]);
      const envByName = new Map(environments.map((e) => [e.name, e]));
      const sdkTokens = tokens.filter(
        (t) => t.type !== 'admin' && tokenReachesProject(t.projects, projectId),
      );
      const views = links.flatMap((link): ProjectEnvironmentView[] => {
        const env = envByName.get(link.environment);
        if (!env) return [];
        return [
          {
            name: env.name,
            type: env.type,
            enabled: true,
            protected: env.protected,
            sortOrder: env.sortOrder,
            projectApiTokenCount: sdkTokens.filter((t) => tokenReachesEnvironment(t.environment, env.name))
              .length,
            projectEnabledToggleCount: enabled[env.name] ?? 0,
            changeRequestsEnabled: guarded.has(env.name),
            ...(link.defaultStrategy ? { defaultStrategy: link.defaultStrategy } : {}),
          },
        ];
      });
      return { version: 1, environments: views };
    },

    /**
     * GET /insights (and the deprecated /dashboard/executive): users, flags and 12 weeks of trends.
     * Flag figures and trends count only the projects the caller may see (the policy's visibility),
     * so a private project's flags, name and figures reach only those who may see it.
     */
    async instanceInsights(caller: Caller): Promise<InstanceInsights> {
      await deps.policy.require(caller, 'NONE', {});
      const now = deps.clock.now();
      const weeks = trendWeeks(now, TREND_WEEKS);
      const since = weeks[0]?.start ?? now.getTime();
      const [
        allUsers,
        everyFeature,
        everyProject,
        environments,
        access,
        everyBucket,
        stateEvents,
        environmentEvents,
        visibility,
      ] = await Promise.all([
        store.users.list(),
        store.features.list(),
        store.projects.list(),
        store.environments.list(),
        store.projectAccess.list(),
        store.metrics.listBuckets(new Date(since).toISOString()),
        eventsOfTypes(STATE_EVENT_TYPES, since),
        eventsOfTypes(ENVIRONMENT_UPDATE_TYPES, since),
        deps.policy.visibleProjects(caller),
      ]);
      const seen = <T>(rows: readonly T[], projectOf: (row: T) => string | null | undefined): T[] =>
        visibility.all ? [...rows] : rows.filter((row) => seesProject(visibility, projectOf(row) ?? ''));
      const features = seen(everyFeature, (f) => f.project);
      const projects = seen(everyProject, (p) => p.id);
      const visibleFeatures = new Set(features.map((f) => f.name));
      const buckets = visibility.all
        ? everyBucket
        : everyBucket.filter((b) => visibleFeatures.has(b.featureName));
      const [groupMembersById, arrivals] = await Promise.all([
        groupMembers(store, access),
        productionArrivals(store, features),
      ]);
      const users = allUsers.filter((u) => u.accountType === 'User');
      const active = users.filter(
        (u) => u.seenAt !== null && Date.parse(u.seenAt) > now.getTime() - ACTIVE_USER_MS,
      ).length;
      const trends = computeTrends({
        weeks,
        users,
        features,
        projects,
        environments,
        stateEvents: seen(stateEvents, (e) => e.project),
        environmentEvents: seen(environmentEvents, (e) => e.project),
        arrivals,
        access: seen(access, (a) => a.projectId),
        groupMembers: groupMembersById,
        buckets,
        lifetimes: await featureTypeLifetimes(store.settings),
      });
      return {
        users: { total: users.length, active, inactive: users.length - active },
        flags: { total: live(features).length },
        ...trends,
      };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
