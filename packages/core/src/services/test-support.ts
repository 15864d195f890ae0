// Shared by service tests: a Flagstaff over a fresh memory store with a clock tests can move.
import { createFlagstaff, type Flagstaff } from '../flagstaff.js';
import { createMemoryStore } from '../memory/index.js';
import type { Clock } from '../ports/runtime-ports.js';
import type { Actor } from './deps.js';

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

export const alice: Actor = { name: 'alice@example.com', userId: 1 };

/** A seeded Flagstaff on a new memory store. */
export async function createTestFlagstaff(
  clock: TestClock = createTestClock(),
): Promise<{ flagstaff: Flagstaff; clock: TestClock }> {
  const flagstaff = await createFlagstaff({ store: createMemoryStore(), clock });
  return { flagstaff, clock };
}

/** Event types written since `afterId`, oldest first. */
export async function eventTypesSince(flagstaff: Flagstaff, afterId = 0): Promise<string[]> {
  const events = await flagstaff.store.events.search({ afterId, ascending: true });
  return events.map((e) => e.type);
}
