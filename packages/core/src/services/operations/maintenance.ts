import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import { noticeMayInclude, type Store } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

/** The setting's name, as the reference's settings store names it. */
export const MAINTENANCE_SETTING = 'maintenance.mode';

/** How long a process trusts what it last read (other processes' toggles arrive within this). */
const TRUST_MS = 1_000;

export const maintenanceInputSchema = z.object({ enabled: z.boolean() });

/**
 * Whether maintenance mode is on, read from the store's settings and cached briefly: the policy asks
 * on every write. A toggle here is seen at once; one through another process at its notice (where the
 * store sends them) or within a second.
 */
export function createMaintenanceState(store: Store) {
  let cached: { enabled: boolean; at: number } | null = null;
  // The toggle writes setting-updated; other writes leave what was read standing.
  store.onEventsAppended?.((notice) => {
    if (noticeMayInclude(notice, (type) => type === 'setting-updated')) cached = null;
  });
  return {
    async isOn(): Promise<boolean> {
      const now = Date.now();
      if (cached && now - cached.at < TRUST_MS) return cached.enabled;
      const value = await store.settings.get(MAINTENANCE_SETTING);
      const enabled =
        typeof value === 'object' && value !== null && 'enabled' in value && value.enabled === true;
      cached = { enabled, at: now };
      return enabled;
    },
    remember(enabled: boolean): void {
      cached = { enabled, at: Date.now() };
    },
  };
}
export type MaintenanceState = ReturnType<typeof createMaintenanceState>;

/**
 * Maintenance mode (`/api/admin/maintenance`): while on, every change through the admin API is
 * refused with a 503 that says so (the policy asks `isOn` in `permit`), while SDKs, the frontend API
 * and reads keep being served. Only root Admins toggle it; the toggle is logged as setting-updated.
 */
export function createMaintenanceService(deps: ServiceDeps, state: MaintenanceState) {
  return {
    async get(caller: Caller): Promise<{ enabled: boolean }> {
      await deps.policy.require(caller, 'NONE', {});
      return { enabled: await state.isOn() };
    },
    async set(caller: Caller, input: unknown): Promise<{ enabled: boolean }> {
      // `require`, not `permit`: turning maintenance off must work while it is on.
      await deps.policy.require(caller, 'ADMIN', {});
      const { enabled } = parseWith(maintenanceInputSchema, input);
      const before = await state.isOn();
      await inTransaction(deps, async (tx) => {
        await tx.settings.set(MAINTENANCE_SETTING, { enabled });
        await writeEvents(tx, caller.actor, nowIso(deps), [
          {
            type: 'setting-updated',
            data: { id: MAINTENANCE_SETTING, enabled },
            preData: { id: MAINTENANCE_SETTING, enabled: before },
          },
        ]);
      });
      state.remember(enabled);
      return { enabled };
    },
  };
}

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
