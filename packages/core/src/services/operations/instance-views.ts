import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import type { ServiceDeps } from '../deps.js';
import { inTransaction, nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

const ORIGINS_SETTING = 'frontend.origins';
/** How long a process trusts the origins it last read. */
const ORIGINS_TRUST_MS = 1_000;

/** `*`, or origins such as `https://shop.example` (scheme, host and port; no path). */
export const frontendOriginsSchema = z.object({
  frontendApiOrigins: z
    .array(
      z.string().refine((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o), {
        message: 'must be "*" or an origin such as https://shop.example (no path)',
      }),
    )
    .max(100, 'must list at most 100 origins'),
});

/** The version Flagstaff reports as its own (its package version). */
export const FLAGSTAFF_VERSION = '0.1.0';

/**
 * `GET /api/admin/ui-config` (what UIs and tools read about the instance) and
 * `GET /api/admin/instance-admin/statistics` (+ `/csv`): counts of what the instance holds.
 */
export function createInstanceViews(
  deps: ServiceDeps & { baseUrl?: string | undefined },
  maintenance: () => Promise<boolean>,
) {
  const { store } = deps;
  let origins: { list: string[]; at: number } | null = null;

  /** The origins browsers may call the frontend API from (default: any), read briefly cached. */
  async function frontendOrigins(): Promise<string[]> {
    const now = Date.now();
    if (origins && now - origins.at < ORIGINS_TRUST_MS) return origins.list;
    const stored = await store.settings.get(ORIGINS_SETTING);
    const list = Array.isArray(stored) ? stored.map(String) : ['*'];
    origins = { list, at: now };
    return list;
  }

  async function statistics() {
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
      store.features.list({ archived: false }),
      store.projects.list(),
      store.environments.list(),
      store.segments.list(),
      store.contextFields.list(),
      store.users.list(),
      store.groups.list(),
      store.roles.list(),
      store.metrics.listApplications(),
      store.strategies.list({}),
      store.tags.listTypes(),
    ]);
    return {
      instanceId: store.name,
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
      featureExports: await store.events.count({ type: 'features-exported' }),
      featureImports: await store.events.count({ type: 'features-imported' }),
    };
  }

  return {
    async uiConfig(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      const base = (deps.baseUrl ?? '').replace(/\/+$/, '');
      return {
        name: 'Flagstaff',
        version: FLAGSTAFF_VERSION,
        slogan: 'Feature flags inside your Node app',
        environment: 'Flagstaff',
        baseUriPath: base ? new URL(base, 'http://x').pathname.replace(/\/+$/, '') : '',
        unleashUrl: base,
        authenticationType: 'simple',
        disablePasswordAuth: false,
        emailEnabled: false,
        maintenanceMode: await maintenance(),
        frontendApiOrigins: await frontendOrigins(),
        segmentValuesLimit: 1000,
        strategySegmentsLimit: 5,
        versionInfo: { current: { oss: FLAGSTAFF_VERSION }, latest: {}, isLatest: true },
        flags: {},
        links: [],
      };
    },

    frontendOrigins,

    /** POST /api/admin/ui-config/cors (root Admins): which origins may call the frontend API. */
    async setFrontendOrigins(caller: Caller, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const { frontendApiOrigins } = parseWith(frontendOriginsSchema, input);
      const before = await frontendOrigins();
      await inTransaction(deps, async (tx) => {
        await tx.settings.set(ORIGINS_SETTING, frontendApiOrigins);
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type: 'setting-updated',
            data: { id: ORIGINS_SETTING, frontendApiOrigins },
            preData: { id: ORIGINS_SETTING, frontendApiOrigins: before },
          },
        ]);
      });
      origins = { list: frontendApiOrigins, at: Date.now() };
    },

    /** Counts of what the instance holds (root Admins). */
    async statistics(caller: Caller) {
      await deps.policy.require(caller, 'ADMIN', {});
      return statistics();
    },

    /** The statistics as CSV: a header row and one row of values (nested values as JSON). */
    async statisticsCsv(caller: Caller): Promise<string> {
      await deps.policy.require(caller, 'ADMIN', {});
      const stats = await statistics();
      const cell = (v: unknown) => {
        const text = typeof v === 'string' ? v : JSON.stringify(v);
        return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
      };
      return `${Object.keys(stats).join(',')}\n${Object.values(stats).map(cell).join(',')}\n`;
    },
  };
}

export type InstanceViews = ReturnType<typeof createInstanceViews>;
