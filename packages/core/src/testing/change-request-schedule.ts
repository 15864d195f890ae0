import { afterEach, describe, expect, test } from 'vitest';
import { type Caller, callerOf, SYSTEM } from '../auth/caller.js';
import { principalOfUser } from '../auth/principal.js';
import { createFlagstaff, type Flagstaff } from '../flagstaff.js';
import type { Store } from '../ports/store.js';

/** A signed-in user made through the user service, as the policy sees them. */
export async function createUserCaller(
  flagstaff: Flagstaff,
  email: string,
  rootRole: 'Editor' | 'Viewer' = 'Editor',
) {
  const view = await flagstaff.users.create(SYSTEM, { email, rootRole });
  const user = await flagstaff.store.users.get(view.id);
  if (!user) throw new Error(`user ${email} was not stored`);
  return { id: view.id, caller: callerOf(principalOfUser(user)) };
}

/**
 * Feature `f1` off in production, where change requests are required, and a request by `author`
 * to switch it on, approved by `reviewer` and scheduled by the reviewer at `scheduledAt`.
 */
export async function scheduleToggle(
  flagstaff: Flagstaff,
  author: Caller,
  reviewer: Caller,
  scheduledAt: string,
): Promise<number> {
  await flagstaff.features.create(SYSTEM, 'default', { name: 'f1' });
  await flagstaff.changeRequests.setConfig(SYSTEM, 'default', 'production', { changeRequestsEnabled: true });
  const draft = await flagstaff.changeRequests.addChanges(author, 'default', 'production', {
    feature: 'f1',
    action: 'updateEnabled',
    payload: { enabled: true },
  });
  await flagstaff.changeRequests.changeState(author, 'default', draft.id, { state: 'In review' });
  await flagstaff.changeRequests.changeState(reviewer, 'default', draft.id, { state: 'Approved' });
  await flagstaff.changeRequests.changeState(reviewer, 'default', draft.id, {
    state: 'Scheduled',
    scheduledAt,
  });
  return draft.id;
}

/**
 * Two Flagstaff instances (two processes) on one store race to apply one scheduled request: it is
 * applied exactly once, its change and its events written once.
 */
export function describeSharedChangeRequestSchedule(
  name: string,
  openPair: () => Promise<readonly [Store, Store]>,
): void {
  describe(`${name}: a scheduled change request shared by two instances`, () => {
    let instances: Flagstaff[] = [];
    afterEach(async () => {
      // The second handle first: the first may drop the schema when it closes.
      for (const f of instances.reverse()) await f.close();
      instances = [];
    });

    test('is applied exactly once however the instances race', async () => {
      const [storeA, storeB] = await openPair();
      let now = Date.parse('2026-01-01T00:00:00.000Z');
      const clock = { now: () => new Date(now) };
      const options = { clock, changeRequestSchedule: { intervalMs: 0 } };
      const a = await createFlagstaff({ store: storeA, ...options });
      instances.push(a);
      const b = await createFlagstaff({ store: storeB, ...options });
      instances.push(b);
      const author = await createUserCaller(a, 'author@example.com');
      const reviewer = await createUserCaller(a, 'reviewer@example.com');
      const id = await scheduleToggle(a, author.caller, reviewer.caller, '2026-01-01T00:10:00.000Z');
      now += 10 * 60_000;
      const runs = [];
      for (let round = 0; round < 3; round++)
        runs.push(
          ...(await Promise.all([a.changeRequests.runDueSchedules(), b.changeRequests.runDueSchedules()])),
        );
      expect(runs.flatMap((r) => r.applied)).toEqual([id]);
      expect(runs.flatMap((r) => [...r.suspended, ...r.failed])).toEqual([]);
      const applied = await storeB.events.search({ type: 'change-request-applied' });
      expect(applied).toHaveLength(1);
      expect(await storeA.events.search({ type: 'feature-environment-enabled' })).toHaveLength(1);
      expect((await storeB.changeRequests.get(id))?.state).toBe('Applied');
    });
  });
}
