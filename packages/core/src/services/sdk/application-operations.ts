import { lt, valid } from 'semver';
import { z } from 'zod';
import {
  type ApplicationMeta,
  applicationDetailsSchema,
  applicationInstancesSchema,
  applicationListSchema,
  applicationMetaSchema,
  applicationOverviewSchema,
  featureRawMetricsSchema,
  featureUsageSchema,
  outdatedSdksSchema,
  rawMetricsQuerySchema,
  unknownFlagsSchema,
} from '../../domain/application.js';
import type { ClientApplication, MetricsBucket } from '../../domain/metrics.js';
import { notFound } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireFeature } from '../features/require-feature.js';
import { requireProject } from '../projects/project-service.js';

const HOUR = 3_600_000;

const metaKey = (appName: string) => `application:${appName}`;

/**
 * The oldest version of each official SDK that is not outdated (the reference's table): older ones
 * miss parts of the client specification Flagstaff serves (segments, dependencies, strategy variants).
 */
export const MINIMUM_SDK_VERSIONS: Readonly<Record<string, string>> = {
  'unleash-client-node': '5.3.2',
  'unleash-client-java': '9.2.0',
  'unleash-client-go': '4.1.0',
  'unleash-client-python': '5.11.0',
  'unleash-client-ruby': '5.0.0',
  'unleash-client-dotnet': '4.1.3',
  'unleash-client-php': '2.3.0',
};

/** Whether a registration's `name:version` is an official SDK older than its minimum. */
export function isOutdatedSdk(sdkVersion: string | null): boolean {
  const [name, version, ...rest] = (sdkVersion ?? '').split(':');
  const minimum = name ? MINIMUM_SDK_VERSIONS[name] : undefined;
  return (
    rest.length === 0 && minimum !== undefined && valid(version) !== null && lt(version as string, minimum)
  );
}

/** An instance as the reference's application views show it. */
const instanceView = (a: ClientApplication) => ({
  instanceId: a.instanceId,
  sdkVersion: a.sdkVersion,
  environment: a.environment,
  lastSeen: a.lastSeen,
  clientIp: null,
});

const metaOf = async (repos: ReadRepositories, appName: string): Promise<ApplicationMeta | null> =>
  (await repos.settings.get(metaKey(appName))) as ApplicationMeta | null;

/** The application's registered instances and details; NOT_FOUND when it has neither. */
async function requireApplication(
  repos: ReadRepositories,
  appName: string,
): Promise<{ instances: ClientApplication[]; meta: ApplicationMeta }> {
  const instances = (await repos.metrics.listApplications()).filter((a) => a.appName === appName);
  const meta = await metaOf(repos, appName);
  if (instances.length === 0 && !meta) throw notFound('application', appName);
  return { instances, meta: meta ?? {} };
}

/** Buckets of the last `hours` hours. */
const recentBuckets = (
  repos: ReadRepositories,
  deps: OperationDeps,
  hours: number,
): Promise<MetricsBucket[]> =>
  repos.metrics.listBuckets(new Date(deps.clock.now().getTime() - hours * HOUR).toISOString());

const bucketView = (b: MetricsBucket) => ({
  featureName: b.featureName,
  appName: b.appName,
  environment: b.environment,
  timestamp: b.timestamp,
  yes: b.yes,
  no: b.no,
  variants: b.variants,
});

const appNameInput = z.object({ appName: z.string().min(1) });
const featureInput = z.object({ name: z.string().min(1) });

/** GET /api/admin/metrics/applications: every application with the environments it was seen in. */
export const listApplications = defineOperation({
  id: 'applications.list',
  summary: 'Applications SDKs registered, with the environments they were seen in',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: applicationListSchema,
  run: async (_input, { repos }) => {
    const byName = new Map<string, ClientApplication[]>();
    for (const a of await repos.metrics.listApplications())
      byName.set(a.appName, [...(byName.get(a.appName) ?? []), a]);
    const applications = await Promise.all(
      [...byName].map(async ([appName, instances]) => ({
        appName,
        ...((await metaOf(repos, appName)) ?? {}),
        usage: [{ project: '*', environments: [...new Set(instances.map((i) => i.environment))].sort() }],
      })),
    );
    return { applications, total: applications.length };
  },
});

/** GET /api/admin/metrics/applications/:appName. */
export const getApplication = defineOperation({
  id: 'applications.get',
  summary: 'One application: its instances, strategies and the features it reported',
  kind: 'read',
  permission: 'NONE',
  input: appNameInput,
  output: applicationDetailsSchema,
  run: async ({ appName }, { repos, deps }) => {
    const { instances, meta } = await requireApplication(repos, appName);
    const seen = new Set(
      (await recentBuckets(repos, deps, 48)).filter((b) => b.appName === appName).map((b) => b.featureName),
    );
    return {
      appName,
      ...meta,
      strategies: [...new Set(instances.flatMap((i) => i.strategies))].sort(),
      instances: instances.map(instanceView),
      seenToggles: [...seen].sort(),
      links: { self: `/api/applications/${encodeURIComponent(appName)}` },
    };
  },
});

/** POST /api/admin/metrics/applications/:appName: description, URL, color, icon (application-created). */
export const upsertApplication = defineOperation({
  id: 'applications.upsert',
  summary: "Set an application's description, URL, color and icon",
  kind: 'write',
  permission: 'UPDATE_APPLICATION',
  input: applicationMetaSchema.extend(appNameInput.shape),
  output: z.void(),
  run: async ({ appName, ...meta }, { repos, actor, deps }) => {
    await repos.settings.set(metaKey(appName), meta);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'application-created', data: { appName, ...meta } },
    ]);
  },
});

/** DELETE /api/admin/metrics/applications/:appName: forgets its registrations and details. */
export const deleteApplication = defineOperation({
  id: 'applications.delete',
  summary: 'Forget an application and its registrations',
  kind: 'write',
  permission: 'DELETE_APPLICATION',
  input: appNameInput,
  output: z.void(),
  run: async ({ appName }, { repos }) => {
    await requireApplication(repos, appName);
    await repos.metrics.deleteApplication(appName);
    await repos.settings.set(metaKey(appName), null);
  },
});

/** GET /api/admin/metrics/applications/:appName/overview: per environment, instances, SDKs, features. */
export const applicationOverview = defineOperation({
  id: 'applications.overview',
  summary: 'An application per environment: instances, SDKs, features it reported that do not exist',
  kind: 'read',
  permission: 'NONE',
  input: appNameInput,
  output: applicationOverviewSchema,
  run: async ({ appName }, { repos, deps }) => {
    const { instances } = await requireApplication(repos, appName);
    const buckets = (await recentBuckets(repos, deps, 48)).filter((b) => b.appName === appName);
    const names = [...new Set(buckets.map((b) => b.featureName))];
    const features = names.length > 0 ? await repos.features.list({ names }) : [];
    const known = new Set(features.map((f) => f.name));
    const environments = [...new Set(instances.map((i) => i.environment))].sort().map((name) => {
      const here = instances.filter((i) => i.environment === name);
      return {
        name,
        instanceCount: here.length,
        sdks: [...new Set(here.map((i) => i.sdkVersion).filter((v): v is string => v !== null))].sort(),
        lastSeen:
          here
            .map((i) => i.lastSeen)
            .sort()
            .at(-1) ?? null,
        issues: {
          missingFeatures: [
            ...new Set(
              buckets
                .filter((b) => b.environment === name && !known.has(b.featureName))
                .map((b) => b.featureName),
            ),
          ].sort(),
        },
      };
    });
    return {
      projects: [...new Set(features.map((f) => f.project))].sort(),
      featureCount: known.size,
      environments,
      issues: { missingFeatures: names.filter((n) => !known.has(n)).sort() },
    };
  },
});

/** GET /api/admin/metrics/instances/:appName/environment/:environment. */
export const applicationInstances = defineOperation({
  id: 'applications.instances',
  summary: 'The instances of an application in one environment',
  kind: 'read',
  permission: 'NONE',
  input: appNameInput.extend({ environment: z.string().min(1) }),
  output: applicationInstancesSchema,
  run: async ({ appName, environment }, { repos }) => {
    const { instances } = await requireApplication(repos, appName);
    return { instances: instances.filter((i) => i.environment === environment).map(instanceView) };
  },
});

/** GET /api/admin/client-metrics/features/:name: the last hour per environment, and the apps using it. */
export const featureUsage = defineOperation({
  id: 'applications.featureUsage',
  summary: "A feature's use in the last hour per environment, and the applications using it",
  kind: 'read',
  permission: 'NONE',
  scope: ({ name }) => ({ feature: name }),
  input: featureInput,
  output: featureUsageSchema,
  run: async ({ name }, { repos, deps }) => {
    await requireFeature(repos, null, name, { archived: true });
    const buckets = (await recentBuckets(repos, deps, 48)).filter((b) => b.featureName === name);
    const hourAgo = new Date(deps.clock.now().getTime() - HOUR).toISOString();
    const lastHour = new Map<string, { environment: string; timestamp: string; yes: number; no: number }>();
    for (const b of buckets.filter((x) => x.timestamp >= hourAgo)) {
      const row = lastHour.get(b.environment) ?? {
        environment: b.environment,
        timestamp: b.timestamp,
        yes: 0,
        no: 0,
      };
      row.yes += b.yes;
      row.no += b.no;
      lastHour.set(b.environment, row);
    }
    return {
      version: 1 as const,
      maturity: 'stable' as const,
      featureName: name,
      lastHourUsage: [...lastHour.values()],
      seenApplications: [...new Set(buckets.map((b) => b.appName))].sort(),
    };
  },
});

/** GET /api/admin/client-metrics/features/:name/raw?hoursBack=: the hourly buckets. */
export const featureRawMetrics = defineOperation({
  id: 'applications.featureRaw',
  summary: "A feature's hourly metrics buckets (hoursBack, at most 48)",
  kind: 'read',
  permission: 'NONE',
  scope: ({ name }) => ({ feature: name }),
  input: featureInput.extend(rawMetricsQuerySchema.shape),
  output: featureRawMetricsSchema,
  run: async ({ name, hoursBack }, { repos, deps }) => {
    await requireFeature(repos, null, name, { archived: true });
    const data = (await recentBuckets(repos, deps, hoursBack)).filter((b) => b.featureName === name);
    return {
      version: 1 as const,
      maturity: 'stable' as const,
      featureName: name,
      data: data.map(bucketView),
    };
  },
});

/**
 * GET /api/admin/metrics/sdks/outdated (and per project: the applications that reported the
 * project's features in the last 48 hours): outdated SDK versions and the applications using them.
 */
export const outdatedSdks = defineOperation({
  id: 'applications.outdatedSdks',
  summary: 'Registered SDK versions older than the official SDKs’ minimums, with their applications',
  kind: 'read',
  permission: 'NONE',
  scope: ({ project }) => (project ? { project } : {}),
  input: z.object({ project: z.string().min(1).optional() }),
  output: outdatedSdksSchema,
  run: async ({ project }, { repos, deps }) => {
    let apps: Set<string> | null = null;
    if (project) {
      await requireProject(repos, project);
      const features = new Set((await repos.features.list({ project })).map((f) => f.name));
      apps = new Set(
        (await recentBuckets(repos, deps, 48))
          .filter((b) => features.has(b.featureName))
          .map((b) => b.appName),
      );
    }
    const byVersion = new Map<string, Set<string>>();
    for (const a of await repos.metrics.listApplications())
      if (isOutdatedSdk(a.sdkVersion) && (!apps || apps.has(a.appName)))
        byVersion.set(
          a.sdkVersion as string,
          (byVersion.get(a.sdkVersion as string) ?? new Set()).add(a.appName),
        );
    return {
      sdks: [...byVersion]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([sdkVersion, names]) => ({ sdkVersion, applications: [...names].sort() })),
    };
  },
});

/** GET /api/admin/metrics/unknown-flags: names SDKs report that no feature has. */
export const unknownFlags = defineOperation({
  id: 'applications.unknownFlags',
  summary: 'Flag names SDKs report that no feature has',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: unknownFlagsSchema,
  run: async (_input, { repos }) => {
    const flags = await repos.metrics.listUnknownFlags(1_000);
    return {
      unknownFlags: flags.map((f) => ({
        name: f.name,
        appName: f.appName,
        environment: f.environment,
        lastSeenAt: f.lastSeenAt,
        seenAt: f.lastSeenAt,
      })),
    };
  },
});
