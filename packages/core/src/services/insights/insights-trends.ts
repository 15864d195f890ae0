import type { Environment } from '../../domain/environment.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import type { FeatureRecord } from '../../domain/feature.js';
import type { InstanceInsights } from '../../domain/insights.js';
import type { MetricsBucket } from '../../domain/metrics.js';
import type { Project } from '../../domain/project.js';
import type { ProjectRoleAssignment, UserRecord } from '../../domain/user.js';
import { averageDays, type ProductionArrival } from './dora.js';
import { groupBy } from './group-by.js';
import { countStaleness, DAY_MS, healthScore, type Lifetimes, type StalenessInput } from './health.js';
import { type TrendWeek, weekOf } from './insights-weeks.js';

/** A user counts as active when seen within this long. */
export const ACTIVE_USER_MS = 60 * DAY_MS;

/** Everything the trends are computed from, read in a fixed number of store calls. */
export interface TrendInput {
  weeks: readonly TrendWeek[];
  /** Human users (service accounts left out). */
  users: readonly UserRecord[];
  /** Every feature, archived ones included. */
  features: readonly FeatureRecord[];
  projects: readonly Project[];
  environments: readonly Environment[];
  /** feature-stale-on/-off, feature-archived and feature-revived events after the first week began. */
  stateEvents: readonly FlagstaffEvent[];
  /** Feature configuration events in an environment after the first week began. */
  environmentEvents: readonly FlagstaffEvent[];
  arrivals: ReadonlyMap<string, ProductionArrival>;
  access: readonly ProjectRoleAssignment[];
  groupMembers: ReadonlyMap<number, readonly number[]>;
  /** Expected lifetime per feature type (the defaults unless changed). */
  lifetimes?: Lifetimes;
  buckets: readonly MetricsBucket[];
}

type Trends = Omit<InstanceInsights, 'users' | 'flags'>;

interface FeatureAt extends StalenessInput {
  name: string;
  project: string;
}

/**
 * A feature as it stood at `asOf`, or null when it did not exist or was archived then. There are
 * no snapshots, so the current state is rolled back: the first stale (archive) event after `asOf`
 * tells the stale (archived) state before it; without one the current state held.
 */
function featureAt(
  feature: FeatureRecord,
  laterEvents: readonly FlagstaffEvent[],
  asOf: number,
): FeatureAt | null {
  if (Date.parse(feature.createdAt) > asOf) return null;
  let stale: boolean | undefined;
  let archived: boolean | undefined;
  for (const e of laterEvents) {
    if (Date.parse(e.createdAt) <= asOf) continue;
    if (stale === undefined && (e.type === 'feature-stale-on' || e.type === 'feature-stale-off'))
      stale = e.type === 'feature-stale-off';
    if (archived === undefined && (e.type === 'feature-archived' || e.type === 'feature-revived'))
      archived = e.type === 'feature-revived';
    if (stale !== undefined && archived !== undefined) break;
  }
  archived ??= feature.archivedAt !== null && Date.parse(feature.archivedAt) <= asOf;
  if (archived) return null;
  return {
    name: feature.name,
    project: feature.project,
    type: feature.type,
    createdAt: feature.createdAt,
    stale: stale ?? feature.stale,
  };
}

function userTrends(input: TrendInput): Trends['userTrends'] {
  return input.weeks.map(({ asOf, date }) => {
    const existing = input.users.filter((u) => Date.parse(u.createdAt) <= asOf);
    // Only the last sighting is stored: a user seen since (asOf − 60 days) counts as active then.
    const active = existing.filter(
      (u) => u.seenAt !== null && Date.parse(u.seenAt) > asOf - ACTIVE_USER_MS,
    ).length;
    return { date, total: existing.length, active, inactive: existing.length - active };
  });
}

/** Distinct users holding a role in each project at `asOf`, directly or through a group. */
function membersAt(input: TrendInput, asOf: number): Map<string, number> {
  const users = new Map<string, Set<number>>();
  for (const a of input.access) {
    if (Date.parse(a.createdAt) > asOf) continue;
    const set = users.get(a.projectId) ?? new Set<number>();
    users.set(a.projectId, set);
    if (a.userId !== null) set.add(a.userId);
    if (a.groupId !== null) for (const id of input.groupMembers.get(a.groupId) ?? []) set.add(id);
  }
  return new Map([...users].map(([p, set]) => [p, set.size]));
}

function flagTrends(input: TrendInput): Pick<Trends, 'flagTrends' | 'projectFlagTrends'> {
  const eventsByFeature = groupBy(input.stateEvents, (e) => e.featureName);
  const arrivalsByProject = groupBy(
    input.features.flatMap((f) => {
      const a = input.arrivals.get(f.name);
      return a ? [{ project: f.project, arrival: a }] : [];
    }),
    (x) => x.project,
  );
  const flagPoints: Trends['flagTrends'] = [];
  const projectPoints: Trends['projectFlagTrends'] = [];
  for (const { week, asOf, date } of input.weeks) {
    const live = input.features.flatMap((f) => featureAt(f, eventsByFeature.get(f.name) ?? [], asOf) ?? []);
    const { total, active, stale, potentiallyStale } = countStaleness(live, asOf, input.lifetimes);
    flagPoints.push({ date, total, active, stale, potentiallyStale });
    const byProject = groupBy(live, (f) => f.project);
    const members = membersAt(input, asOf);
    for (const project of input.projects) {
      if (Date.parse(project.createdAt) > asOf) continue;
      const counts = countStaleness(byProject.get(project.id) ?? [], asOf, input.lifetimes);
      const arrived = (arrivalsByProject.get(project.id) ?? [])
        .filter((x) => x.arrival.enabledAt <= asOf)
        .map((x) => x.arrival);
      projectPoints.push({
        week,
        project: project.id,
        date,
        total: counts.total,
        active: counts.active,
        stale: counts.stale,
        potentiallyStale: counts.potentiallyStale,
        health: healthScore(counts),
        // Left out (not 0) when nothing reached production yet, so averages over projects stay honest.
        ...(arrived.length > 0 ? { timeToProduction: averageDays(arrived) } : {}),
        users: members.get(project.id) ?? 0,
      });
    }
  }
  return { flagTrends: flagPoints, projectFlagTrends: projectPoints };
}

function metricsSummaryTrends(input: TrendInput): Trends['metricsSummaryTrends'] {
  const projectOf = new Map(input.features.map((f) => [f.name, f.project]));
  const rows = new Map<
    string,
    {
      week: TrendWeek;
      project: string;
      yes: number;
      no: number;
      apps: Set<string>;
      flags: Set<string>;
      envs: Set<string>;
    }
  >();
  for (const b of input.buckets) {
    const week = weekOf(input.weeks, Date.parse(b.timestamp));
    const project = projectOf.get(b.featureName);
    // Metrics of features that no longer exist have no project to report under.
    if (!week || project === undefined) continue;
    const key = `${week.week}\u0000${project}`;
    const row = rows.get(key) ?? {
      week,
      project,
      yes: 0,
      no: 0,
      apps: new Set(),
      flags: new Set(),
      envs: new Set(),
    };
    rows.set(key, row);
    row.yes += b.yes;
    row.no += b.no;
    row.apps.add(b.appName);
    row.flags.add(b.featureName);
    row.envs.add(b.environment);
  }
  return [...rows.values()]
    .sort((a, b) => a.week.start - b.week.start || a.project.localeCompare(b.project))
    .map((r) => ({
      week: r.week.week,
      date: r.week.date,
      project: r.project,
      totalRequests: r.yes + r.no,
      totalYes: r.yes,
      totalNo: r.no,
      totalApps: r.apps.size,
      totalFlags: r.flags.size,
      totalEnvironments: r.envs.size,
    }));
}

function environmentTypeTrends(input: TrendInput): Trends['environmentTypeTrends'] {
  const typeOf = new Map(input.environments.map((e) => [e.name, e.type]));
  const types = [...new Set(typeOf.values())].sort();
  const counts = new Map<string, number>();
  for (const e of input.environmentEvents) {
    const type = e.environment == null ? undefined : typeOf.get(e.environment);
    const week = weekOf(input.weeks, Date.parse(e.createdAt));
    if (type === undefined || !week) continue;
    const key = `${week.week}\u0000${type}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return input.weeks.flatMap(({ week, date }) =>
    types.map((environmentType) => ({
      date,
      week,
      environmentType,
      totalUpdates: counts.get(`${week}\u0000${environmentType}`) ?? 0,
    })),
  );
}

/** Weekly trends of users, flags, projects, metrics and environment updates. */
export function computeTrends(input: TrendInput): Trends {
  return {
    userTrends: userTrends(input),
    ...flagTrends(input),
    metricsSummaryTrends: metricsSummaryTrends(input),
    environmentTypeTrends: environmentTypeTrends(input),
  };
}
