import { z } from 'zod';
import { type InstanceStatistics, instanceStatisticsSchema } from '../../domain/instance.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { FLAGSTAFF_VERSION } from './ui-config.js';

/** Counts of what the instance holds. */
async function readStatistics(repos: ReadRepositories, deps: OperationDeps): Promise<InstanceStatistics> {
  const [
    features,
    projects,
    environments,
    segments,
    contextFields,
    users,
    groups,
    roles,
    apps,
    strategies,
    tagTypes,
  ] = await Promise.all([
    repos.features.list({ archived: false }),
    repos.projects.list(),
    repos.environments.list(),
    repos.segments.list(),
    repos.contextFields.list(),
    repos.users.list(),
    repos.groups.list(),
    repos.roles.list(),
    repos.metrics.listApplications(),
    repos.strategies.list({}),
    repos.tags.listTypes(),
  ]);
  return {
    instanceId: deps.store.name,
    versionOSS: FLAGSTAFF_VERSION,
    timestamp: deps.clock.now().toISOString(),
    users: users.filter((u) => u.accountType === 'User').length,
    serviceAccounts: users.filter((u) => u.accountType !== 'User').length,
    featureToggles: features.length,
    projects: projects.length,
    contextFields: contextFields.length,
    roles: roles.length,
    groups: groups.length,
    environments: environments.length,
    segments: segments.length,
    strategies: new Set(strategies.map((s) => s.name)).size,
    tagTypes: tagTypes.length,
    clientApps: [{ range: 'allTime', count: new Set(apps.map((a) => a.appName)).size }],
    featureExports: await repos.events.count({ type: 'features-exported' }),
    featureImports: await repos.events.count({ type: 'features-imported' }),
  };
}

/** `GET /api/admin/instance-admin/statistics`: counts of what the instance holds (root Admins). */
export const getInstanceStatistics = defineOperation({
  id: 'instance.statistics',
  summary: 'Counts of what the instance holds (root Admins)',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: instanceStatisticsSchema,
  run: (_input, { deps, repos }) => readStatistics(repos, deps),
});

/** `GET /api/admin/instance-admin/statistics/csv`: the same counts as CSV text (root Admins). */
export const getInstanceStatisticsCsv = defineOperation({
  id: 'instance.statisticsCsv',
  summary: 'The instance statistics as CSV',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: z.string(),
  run: async (_input, { deps, repos }) => statisticsCsv(await readStatistics(repos, deps)),
});

/** The statistics as CSV: a header row and one row of values (nested values as JSON). */
export function statisticsCsv(stats: InstanceStatistics): string {
  const cell = (v: unknown) => {
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${Object.keys(stats).join(',')}\n${Object.values(stats).map(cell).join(',')}\n`;
}
