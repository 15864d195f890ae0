import { lt, valid } from 'semver';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { ClientApplication, MetricsBucket } from '../../domain/metrics.js';
import { parseWith } from '../../domain/parse.js';
import { notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireFeature } from '../features/require-feature.js';
import { requireProject } from '../projects/project-service.js';

const HOUR = 3_600_000;

export const applicationMetaSchema = z.object({
  description: z.string().max(1000, 'must be at most 1000 characters').optional(),
  url: z.url('must be a URL').optional(),
  color: z.string().max(50, 'must be at most 50 characters').optional(),
  icon: z.string().max(100, 'must be at most 100 characters').optional(),
});
type ApplicationMeta = z.infer<typeof applicationMetaSchema>;

export const rawMetricsQuerySchema = z.object({
  hoursBack: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(48, 'must be at most 48')
    .default(1),
});

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

/**
 * The reference's application and feature-usage views over what SDKs register and report:
 * `/api/admin/metrics/applications…`, `/api/admin/metrics/instances…`, `/api/admin/client-metrics/features/:name`
 * and `/raw`, and the unknown flags.
 */
export function createApplicationViews(deps: ServiceDeps) {
  const { store } = deps;

  async function instancesOf(appName: string): Promise<ClientApplication[]> {
    const instances = (await store.metrics.listApplications()).filter((a) => a.appName === appName);
    return instances;
  }

  async function requireApplication(
    appName: string,
  ): Promise<{ instances: ClientApplication[]; meta: ApplicationMeta }> {
    const instances = await instancesOf(appName);
    const meta = (await store.settings.get(metaKey(appName))) as ApplicationMeta | null;
    if (instances.length === 0 && !meta) throw notFound('application', appName);
    return { instances, meta: meta ?? {} };
  }

  /** Buckets of the last `hours` hours. */
  const recentBuckets = (hours: number): Promise<MetricsBucket[]> =>
    store.metrics.listBuckets(new Date(deps.clock.now().getTime() - hours * HOUR).toISOString());

  return {
    /** GET /api/admin/metrics/applications: every application with the environments it was seen in. */
    async list(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      const byName = new Map<string, ClientApplication[]>();
      for (const a of await store.metrics.listApplications())
        byName.set(a.appName, [...(byName.get(a.appName) ?? []), a]);
      const applications = await Promise.all(
        [...byName].map(async ([appName, instances]) => ({
          appName,
          ...(((await store.settings.get(metaKey(appName))) as ApplicationMeta | null) ?? {}),
          usage: [{ project: '*', environments: [...new Set(instances.map((i) => i.environment))].sort() }],
        })),
      );
      return { applications, total: applications.length };
    },

    /** GET /api/admin/metrics/applications/:appName. */
    async get(caller: Caller, appName: string) {
      await deps.policy.require(caller, 'NONE', {});
      const { instances, meta } = await requireApplication(appName);
      const seen = new Set(
        (await recentBuckets(48)).filter((b) => b.appName === appName).map((b) => b.featureName),
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

    /** POST /api/admin/metrics/applications/:appName: description, URL, color, icon (application-created). */
    async upsert(caller: Caller, appName: string, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_APPLICATION', {});
      const meta = parseWith(applicationMetaSchema, input);
      await inTransaction(deps, async (tx) => {
        await tx.settings.set(metaKey(appName), meta);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'application-created', data: { appName, ...meta } },
        ]);
      });
    },

    /** DELETE /api/admin/metrics/applications/:appName: forgets its registrations and details. */
    async delete(caller: Caller, appName: string): Promise<void> {
      await deps.policy.permit(caller, 'DELETE_APPLICATION', {});
      await requireApplication(appName);
      await inTransaction(deps, async (tx) => {
        await tx.metrics.deleteApplication(appName);
        await tx.settings.set(metaKey(appName), null);
      });
    },

    /** GET /api/admin/metrics/applications/:appName/overview: per environment, instances, SDKs, features. */
    async overview(caller: Caller, appName: string) {
      await deps.policy.require(caller, 'NONE', {});
      const { instances } = await requireApplication(appName);
      const buckets = (await recentBuckets(48)).filter((b) => b.appName === appName);
      const names = [...new Set(buckets.map((b) => b.featureName))];
      const features = names.length > 0 ? await store.features.list({ names }) : [];
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

    /** GET /api/admin/metrics/instances/:appName/environment/:environment. */
    async instances(caller: Caller, appName: string, environment: string) {
      await deps.policy.require(caller, 'NONE', {});
      const { instances } = await requireApplication(appName);
      return { instances: instances.filter((i) => i.environment === environment).map(instanceView) };
    },

    /** GET /api/admin/client-metrics/features/:name: the last hour per environment, and the apps using it. */
    async featureUsage(caller: Caller, name: string) {
      await deps.policy.require(caller, 'NONE', { feature: name });
      await requireFeature(store, null, name, { archived: true });
      const buckets = (await recentBuckets(48)).filter((b) => b.featureName === name);
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
        version: 1,
        maturity: 'stable',
        featureName: name,
        lastHourUsage: [...lastHour.values()],
        seenApplications: [...new Set(buckets.map((b) => b.appName))].sort(),
      };
    },

    /** GET /api/admin/client-metrics/features/:name/raw?hoursBack=: the hourly buckets. */
    async featureRaw(caller: Caller, name: string, query: unknown) {
      await deps.policy.require(caller, 'NONE', { feature: name });
      const { hoursBack } = parseWith(rawMetricsQuerySchema, query);
      await requireFeature(store, null, name, { archived: true });
      const data = (await recentBuckets(hoursBack)).filter((b) => b.featureName === name);
      return { version: 1, maturity: 'stable', featureName: name, data };
    },

    /**
     * GET /api/admin/metrics/sdks/outdated (and per project: the applications that reported the
     * project's features in the last 48 hours): outdated SDK versions and the applications using them.
     */
    async outdatedSdks(caller: Caller, project?: string) {
      await deps.policy.require(caller, 'NONE', project ? { project } : {});
      let apps: Set<string> | null = null;
      if (project) {
        await requireProject(store, project);
        const features = new Set((await store.features.list({ project })).map((f) => f.name));
        apps = new Set(
          (await recentBuckets(48)).filter((b) => features.has(b.featureName)).map((b) => b.appName),
        );
      }
      const byVersion = new Map<string, Set<string>>();
      for (const a of await store.metrics.listApplications())
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

    /** GET /api/admin/metrics/unknown-flags: names SDKs report that no feature has. */
    async unknownFlags(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      const flags = await store.metrics.listUnknownFlags(1_000);
      return { unknownFlags: flags.map((f) => ({ ...f, seenAt: f.lastSeenAt })) };
    },
  };
}

export type ApplicationViews = ReturnType<typeof createApplicationViews>;
