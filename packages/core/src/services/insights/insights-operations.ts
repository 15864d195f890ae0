import { z } from 'zod';
import { userIdOf } from '../../auth/caller.js';
import { seesProject, tokenReachesEnvironment, tokenReachesProject } from '../../auth/principal.js';
import type { EventType } from '../../domain/event.js';
import type { FeatureRecord } from '../../domain/feature.js';
import {
  doraMetricsSchema,
  instanceInsightsSchema,
  projectEnvironmentsSchema,
  projectOverviewSchema,
} from '../../domain/insights.js';
import type { ProjectEnvironmentView } from '../../domain/project.js';
import type { ProjectRoleAssignment } from '../../domain/user.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
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

/** The environments of a project that require change requests. */
const guardedEnvironments = async (repos: ReadRepositories, project: string): Promise<Set<string>> =>
  new Set(
    (await repos.changeRequests.listSettings(project)).filter((s) => s.enabled).map((s) => s.environment),
  );

/** Events of the type list after `since`, oldest first, one read per type. */
const eventsOfTypes = async (repos: ReadRepositories, types: readonly EventType[], since: number) =>
  (
    await Promise.all(
      types.map((type) =>
        repos.events.search({ type, createdAfter: new Date(since - 1).toISOString(), ascending: true }),
      ),
    )
  )
    .flat()
    .sort((a, b) => a.id - b.id);

const projectInput = z.object({ project: z.string().min(1) });
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** Health (0–100) of a project's live features now. */
export const projectHealth = defineOperation({
  id: 'insights.health',
  summary: "The health (0–100) of a project's live features",
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: projectInput,
  output: z.number(),
  run: async ({ project }, { repos, deps }) => {
    await requireProject(repos, project);
    const features = await repos.features.list({ project, archived: false });
    return healthScore(
      countStaleness(features, deps.clock.now().getTime(), await featureTypeLifetimes(repos.settings)),
    );
  },
});

/** DORA lead time to production of the project's release features. */
export const projectDora = defineOperation({
  id: 'insights.dora',
  summary: 'Get the DORA metrics of a project',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: projectInput,
  output: doraMetricsSchema,
  run: async ({ project }, { repos }) => {
    await requireProject(repos, project);
    return doraMetrics(repos, project, await repos.features.list({ project }));
  },
});

/** A project's overview: activity windows, members, health, environments, type counts. */
export const projectOverview = defineOperation({
  id: 'insights.overview',
  summary: 'Get a project overview',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: projectInput,
  output: projectOverviewSchema,
  run: async ({ project }, { repos, deps, caller }) => {
    const userId = userIdOf(caller);
    const found = await requireProject(repos, project);
    const now = deps.clock.now().getTime();
    const currentStart = now - WINDOW_MS;
    const pastStart = now - 2 * WINDOW_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    const [features, links, assignments, favorites, activityCurrent, activityPast] = await Promise.all([
      repos.features.list({ project: project }),
      repos.environments.listForProject(project),
      repos.projectAccess.list(project),
      userId != null ? repos.favorites.list(userId) : Promise.resolve({ features: [], projects: [] }),
      // The store's date bounds are exclusive: windows are (start, end], like the feature counts below.
      repos.events.count({ project: project, createdAfter: iso(currentStart) }),
      repos.events.count({
        project: project,
        createdAfter: iso(pastStart),
        createdBefore: iso(currentStart + 1),
      }),
    ]);
    const guarded = await guardedEnvironments(repos, project);
    const [members, dora] = await Promise.all([
      groupMembers(repos, assignments),
      doraMetrics(repos, project, features),
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
      name: found.name,
      description: found.description,
      defaultStickiness: found.defaultStickiness,
      mode: found.mode,
      featureLimit: found.featureLimit,
      featureNaming: found.featureNaming,
      members: usersOf(assignments, members).size,
      health: healthScore(countStaleness(liveFeatures, now, await featureTypeLifetimes(repos.settings))),
      environments: links.map((l) => ({
        environment: l.environment,
        changeRequestsEnabled: guarded.has(l.environment),
        ...(l.defaultStrategy ? { defaultStrategy: l.defaultStrategy } : {}),
      })),
      featureTypeCounts: [...typeCounts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([type, n]) => ({ type, count: n })),
      updatedAt: found.updatedAt,
      createdAt: found.createdAt,
      favorite: favorites.projects.includes(project),
    };
  },
});

/** The project's environments with token and enabled-feature counts. */
export const projectEnvironments = defineOperation({
  id: 'insights.projectEnvironments',
  summary: 'List the environments of a project',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: projectInput,
  output: projectEnvironmentsSchema,
  run: async ({ project }, { repos }) => {
    await requireProject(repos, project);
    const guarded = await guardedEnvironments(repos, project);
    const [links, environments, tokens, enabled] = await Promise.all([
      repos.environments.listForProject(project),
      repos.environments.list(),
      repos.apiTokens.list(),
      repos.featureEnvironments.countEnabled(project),
    ]);
    const envByName = new Map(environments.map((e) => [e.name, e]));
    const sdkTokens = tokens.filter((t) => t.type !== 'admin' && tokenReachesProject(t.projects, project));
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
    return { version: 1 as const, environments: views };
  },
});

/**
 * Users, flags and 12 weeks of trends. Flag figures and trends count only the projects the caller
 * may see (the policy's visibility), so a private project's flags, name and figures reach only
 * those who may see it.
 */
export const instanceInsights = defineOperation({
  id: 'insights.instance',
  summary: 'Get instance insights',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: instanceInsightsSchema,
  run: async (_input, { repos, deps, caller }) => {
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
      repos.users.list(),
      repos.features.list(),
      repos.projects.list(),
      repos.environments.list(),
      repos.projectAccess.list(),
      repos.metrics.listBuckets(new Date(since).toISOString()),
      eventsOfTypes(repos, STATE_EVENT_TYPES, since),
      eventsOfTypes(repos, ENVIRONMENT_UPDATE_TYPES, since),
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
      groupMembers(repos, access),
      productionArrivals(repos, features),
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
      lifetimes: await featureTypeLifetimes(repos.settings),
    });
    return {
      users: { total: users.length, active, inactive: users.length - active },
      flags: { total: live(features).length },
      ...trends,
    };
  },
});

/** Every insight operation, for route tables and tools. */
export const insightOperations = [
  projectHealth,
  projectDora,
  projectOverview,
  projectEnvironments,
  instanceInsights,
] as const;
