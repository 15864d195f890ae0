import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { maintenanceInputSchema, maintenanceStateSchema } from '../../domain/instance.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { noticeMayInclude, type Store } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

/** The setting's name, as the reference's settings store names it. */
export const MAINTENANCE_SETTING = 'maintenance.mode';

/** How long a process trusts what it last read (other processes' toggles arrive within this). */
const TRUST_MS = 1_000;

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

/** Whether maintenance mode is on (any signed-in caller). */
export const getMaintenanceMode = defineOperation({
  id: 'maintenance.get',
  summary: 'Whether maintenance mode is on',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: maintenanceStateSchema,
  run: async (_input, { deps }) => ({ enabled: await deps.instance.maintenance.isOn() }),
});

/**
 * Turns maintenance mode on or off (root Admins; setting-updated). It runs while maintenance mode
 * is on (turning it off must work then); a command, so the process's cached flag is set only once
 * the setting and its event are committed.
 */
export const setMaintenanceMode = defineOperation({
  id: 'maintenance.set',
  summary: 'Turn maintenance mode on or off (root Admins): while on, admin changes are refused with 503',
  kind: 'command',
  permission: 'ADMIN',
  duringMaintenance: true,
  input: maintenanceInputSchema,
  output: maintenanceStateSchema,
  run: async ({ enabled }, { deps, actor, transaction }) => {
    const before = await deps.instance.maintenance.isOn();
    await transaction(async (tx) => {
      await tx.settings.set(MAINTENANCE_SETTING, { enabled });
      await writeEvents(tx, actor, nowIso(deps), [
        {
          type: 'setting-updated',
          data: { id: MAINTENANCE_SETTING, enabled },
          preData: { id: MAINTENANCE_SETTING, enabled: before },
        },
      ]);
    });
    deps.instance.maintenance.remember(enabled);
    return { enabled };
  },
});

/**
 * Maintenance mode (`/api/admin/maintenance`): while on, every change through the admin API is
 * refused with a 503 that says so (the policy asks `isOn` in `permit`), while SDKs, the frontend API
 * and reads keep being served. Typed wrappers over the operations above.
 */
export function createMaintenanceService(run: OperationRunner) {
  return {
    get: (caller: Caller): Promise<{ enabled: boolean }> => run(getMaintenanceMode, caller, {}),
    set: (caller: Caller, input: { enabled: boolean }): Promise<{ enabled: boolean }> =>
      run(setMaintenanceMode, caller, input),
  };
}

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
