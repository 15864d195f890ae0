import { z } from 'zod';
import { frontendOriginsSchema } from '../../domain/instance.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Store } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

const ORIGINS_SETTING = 'frontend.origins';
/** How long a process trusts the origins it last read. */
const ORIGINS_TRUST_MS = 1_000;

/** The origins browsers may call the frontend API from (default: any), read briefly cached. */
export function createFrontendOriginsState(store: Store) {
  let origins: { list: string[]; at: number } | null = null;
  return {
    async read(): Promise<string[]> {
      const now = Date.now();
      if (origins && now - origins.at < ORIGINS_TRUST_MS) return origins.list;
      const stored = await store.settings.get(ORIGINS_SETTING);
      const list = Array.isArray(stored) ? stored.map(String) : ['*'];
      origins = { list, at: now };
      return list;
    },
    remember(list: string[]): void {
      origins = { list, at: Date.now() };
    },
  };
}
export type FrontendOriginsState = ReturnType<typeof createFrontendOriginsState>;

/** `POST /api/admin/ui-config/cors` (root Admins): which origins may call the frontend API (setting-updated). */
export const setFrontendOrigins = defineOperation({
  id: 'instance.frontendOrigins.set',
  summary: 'Set the origins browsers may call the frontend API from ("*": any)',
  kind: 'write',
  permission: 'ADMIN',
  input: frontendOriginsSchema,
  output: z.null(),
  run: async ({ frontendApiOrigins }, { deps, repos, actor }) => {
    const before = await deps.instance.frontendOrigins.read();
    await repos.settings.set(ORIGINS_SETTING, frontendApiOrigins);
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'setting-updated',
        data: { id: ORIGINS_SETTING, frontendApiOrigins },
        preData: { id: ORIGINS_SETTING, frontendApiOrigins: before },
      },
    ]);
    deps.instance.frontendOrigins.remember(frontendApiOrigins);
    return null;
  },
});
