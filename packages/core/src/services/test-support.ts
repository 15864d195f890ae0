import { type Caller, callerOf } from '../auth/caller.js';
// Shared by service tests: a Flagstaff over a fresh memory store with a clock tests can move.
import { createFlagstaff, type Flagstaff } from '../flagstaff.js';
import { createMemoryStore } from '../memory/index.js';
import type { Clock } from '../ports/runtime-ports.js';

export interface TestClock extends Clock {
  set(iso: string): void;
  advance(ms: number): void;
}

/** A clock that stands still until told to move. */
export function createTestClock(start = '2026-01-01T00:00:00.000Z'): TestClock {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    set: (iso) => {
      now = Date.parse(iso);
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** A signed-in root Admin: the caller most tests act as (events record alice@example.com, user 1). */
export const alice: Caller = callerOf({
  kind: 'user',
  userId: 1,
  name: 'alice@example.com',
  rootRole: 'Admin',
});

/**
 * A seeded Flagstaff on a new memory store. Webhooks may reach 127.0.0.1, where test receivers
 * listen (the outbound policy refuses loopback otherwise).
 */
export async function createTestFlagstaff(
  clock: TestClock = createTestClock(),
): Promise<{ flagstaff: Flagstaff; clock: TestClock }> {
  const flagstaff = await createFlagstaff({
    store: createMemoryStore(),
    clock,
    webhookAllowedHosts: ['127.0.0.1'],
  });
  return { flagstaff, clock };
}

/** Event types written since `afterId`, oldest first. */
export async function eventTypesSince(flagstaff: Flagstaff, afterId = 0): Promise<string[]> {
  const events = await flagstaff.store.events.search({ afterId, ascending: true });
  return events.map((e) => e.type);
}

/** A signed-in user with a root role (default Admin), as the policy sees them. */
export const userCaller = (userId: number, rootRole: 'Admin' | 'Editor' | 'Viewer' = 'Admin'): Caller =>
  callerOf({ kind: 'user', userId, name: `user-${userId}@example.com`, rootRole });

/** An SDK token of a type bound to an environment (all projects unless given). */
export const tokenCaller = (
  tokenType: 'client' | 'frontend' | 'admin',
  environment = '*',
  projects: string[] = ['*'],
): Caller =>
  callerOf({
    kind: 'api-token',
    tokenType,
    name: `${tokenType}-token`,
    secretHash: 'test',
    projects,
    environment,
  });
