import { beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.js';
import type { Flagstaff } from '../../flagstaff.js';
import { createFlagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { createUserCaller, scheduleToggle } from '../../testing/change-request-schedule.js';
import { alice, createTestClock, eventTypesSince, type TestClock } from '../test-support.js';

let flagstaff: Flagstaff;
let clock: TestClock;
let ann: Caller;
let bob: { id: number; caller: Caller };
const IN_AN_HOUR = '2026-01-01T01:00:00.000Z';

beforeEach(async () => {
  clock = createTestClock();
  // No timer: the test moves the clock and runs the pass itself.
  flagstaff = await createFlagstaff({
    store: createMemoryStore(),
    clock,
    changeRequestSchedule: { intervalMs: 0 },
  });
  ann = (await createUserCaller(flagstaff, 'ann@example.com')).caller;
  bob = await createUserCaller(flagstaff, 'bob@example.com');
});

const enabled = async () =>
  (await flagstaff.store.featureEnvironments.get('f1', 'production'))?.enabled ?? false;

describe('scheduled change requests', () => {
  it('are applied once when due, as the user who scheduled them, and not before', async () => {
    const id = await scheduleToggle(flagstaff, ann, bob.caller, IN_AN_HOUR);
    clock.advance(59 * 60_000);
    expect(await flagstaff.changeRequests.runDueSchedules()).toEqual({
      applied: [],
      suspended: [],
      failed: [],
    });
    expect(await enabled()).toBe(false);
    clock.advance(60_000);
    const before = await flagstaff.store.events.latestId();
    expect((await flagstaff.changeRequests.runDueSchedules()).applied).toEqual([id]);
    expect(await enabled()).toBe(true);
    // Switched on without a strategy: the default strategy comes first, as on the direct route.
    expect(await eventTypesSince(flagstaff, before)).toEqual([
      'feature-strategy-add',
      'feature-environment-enabled',
      'change-request-applied',
      'change-request-scheduled-application-success',
    ]);
    const [event] = await flagstaff.store.events.search({ type: 'feature-environment-enabled', limit: 1 });
    expect(event?.createdByUserId).toBe(bob.id);
    expect((await flagstaff.changeRequests.get(alice, 'default', id)).state).toBe('Applied');
    clock.advance(60_000);
    expect((await flagstaff.changeRequests.runDueSchedules()).applied).toEqual([]);
  });

  it('survive a restart: a new Flagstaff over the same store applies them', async () => {
    const store = createMemoryStore();
    const first = await createFlagstaff({ store, clock, changeRequestSchedule: { intervalMs: 0 } });
    const a = await createUserCaller(first, 'a@example.com');
    const b = await createUserCaller(first, 'b@example.com');
    const id = await scheduleToggle(first, a.caller, b.caller, IN_AN_HOUR);
    // The first process goes away without closing the store; the second takes over.
    const second = await createFlagstaff({ store, clock, changeRequestSchedule: { intervalMs: 0 } });
    clock.advance(3_600_000);
    expect((await second.changeRequests.runDueSchedules()).applied).toEqual([id]);
  });

  it('are suspended with the reason when a change conflicts, and applied nothing', async () => {
    const id = await scheduleToggle(flagstaff, ann, bob.caller, IN_AN_HOUR);
    // The feature goes to the archive meanwhile, changed where change requests are not required.
    await flagstaff.changeRequests.setConfig(alice, 'default', 'production', {
      changeRequestsEnabled: false,
    });
    await flagstaff.features.archive(alice, 'default', ['f1']);
    clock.advance(3_600_000);
    const before = await flagstaff.store.events.latestId();
    expect((await flagstaff.changeRequests.runDueSchedules()).suspended).toEqual([id]);
    expect(await eventTypesSince(flagstaff, before)).toEqual(['change-request-schedule-suspended']);
    const view = await flagstaff.changeRequests.get(alice, 'default', id);
    expect(view.state).toBe('Scheduled');
    expect(view.schedule).toMatchObject({ status: 'suspended', reason: expect.stringContaining('f1') });
    expect((await flagstaff.changeRequests.runDueSchedules()).suspended).toEqual([]);
  });

  it('are suspended when the scheduler lost the permission to apply', async () => {
    const id = await scheduleToggle(flagstaff, ann, bob.caller, IN_AN_HOUR);
    await flagstaff.users.update(alice, bob.id, { rootRole: 'Viewer' });
    clock.advance(3_600_000);
    expect((await flagstaff.changeRequests.runDueSchedules()).suspended).toEqual([id]);
    expect(await enabled()).toBe(false);
    const view = await flagstaff.changeRequests.get(alice, 'default', id);
    expect(view.schedule?.reason).toContain('may no longer apply');
    // Rescheduling by someone who may apply resumes it.
    await flagstaff.changeRequests.changeState(alice, 'default', id, {
      state: 'Scheduled',
      scheduledAt: '2026-01-01T02:00:00.000Z',
    });
    clock.advance(3_600_000);
    expect((await flagstaff.changeRequests.runDueSchedules()).applied).toEqual([id]);
  });

  it('run in one process at a time: another takes over when the lease expires', async () => {
    const store = createMemoryStore();
    const options = { clock, changeRequestSchedule: { intervalMs: 0, leaseMs: 60_000 } };
    const a = await createFlagstaff({ store, ...options });
    const b = await createFlagstaff({ store, ...options });
    const author = await createUserCaller(a, 'author@example.com');
    const reviewer = await createUserCaller(a, 'reviewer@example.com');
    await a.changeRequests.runDueSchedules();
    const id = await scheduleToggle(a, author.caller, reviewer.caller, IN_AN_HOUR);
    clock.advance(3_600_000 - 30_000);
    // a took the lease on its first pass and renews it; b waits.
    await a.changeRequests.runDueSchedules();
    clock.advance(30_000);
    expect((await b.changeRequests.runDueSchedules()).applied).toEqual([]);
    // a crashes (it runs no more passes): once its lease expires, b takes over.
    clock.advance(60_000);
    expect((await b.changeRequests.runDueSchedules()).applied).toEqual([id]);
  });
});
