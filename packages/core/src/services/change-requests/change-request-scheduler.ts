import { randomUUID } from 'node:crypto';
import { type Caller, callerOf } from '../../auth/caller.js';
import { principalOfUser } from '../../auth/principal.js';
import type { ChangeRequestRecord, ChangeRequestSchedule } from '../../domain/change-request.js';
import { FlagstaffError } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { ApplyRefused, createApplier, requestEvents } from './change-request-apply.js';

export interface ScheduleOptions {
  /** How often due schedules are looked for (default 10 s; 0: only on `runDueSchedules()`). */
  intervalMs?: number | undefined;
  /** How long the scheduling lease lasts without renewal (default 60 s). */
  leaseMs?: number | undefined;
}

/** The settings entry holding the scheduling lease (`{ holder, expiresAt }`, epoch ms). */
const LEASE = 'change-requests.schedule-lease';

/** What one run did with the due requests. */
export interface ScheduleRun {
  applied: number[];
  suspended: number[];
  failed: number[];
}

/**
 * Applies scheduled change requests when they are due. The schedule lives in the store, so a
 * restart loses nothing. One process at a time does the work, under a lease; even without it a
 * request is applied exactly once, since applying re-reads the request inside the apply
 * transaction and refuses one that changed meanwhile (stores run transactions serializably). The changes run as the
 * user who scheduled them, with that user's permission checked at the time: a user who lost it, or
 * a change that conflicts, suspends the schedule (change-request-schedule-suspended) with the reason.
 */
export function createChangeRequestScheduler(deps: ServiceDeps, options: ScheduleOptions = {}) {
  const applier = createApplier(deps);
  const leaseMs = options.leaseMs ?? 60_000;
  // Not from `deps.ids`: a deterministic test generator could hand two processes one identity.
  const holder = randomUUID();
  /** Whether this process took the lease at some point (only then is there one to release). */
  let tookLease = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<ScheduleRun> | null = null;

  /** The caller a schedule runs as; null when that user is gone. API tokens run as the system. */
  async function schedulerOf(schedule: ChangeRequestSchedule): Promise<Caller | null> {
    const { id, username } = schedule.scheduledBy;
    if (id === null)
      return { principal: { kind: 'system', name: username }, actor: { name: username, userId: null } };
    const user = await deps.store.users.get(id);
    return user ? callerOf(principalOfUser(user)) : null;
  }

  async function suspend(record: ChangeRequestRecord, reason: string): Promise<void> {
    const at = nowIso(deps);
    await inTransaction(deps, async (tx) => {
      const current = await tx.changeRequests.get(record.id);
      if (
        !current ||
        current.updatedAt !== record.updatedAt ||
        current.state !== 'Scheduled' ||
        !current.schedule
      )
        return;
      const next = {
        ...current,
        failure: reason,
        schedule: { ...current.schedule, status: 'suspended' as const, reason },
      };
      await tx.changeRequests.update(next);
      const actor = { name: 'system', userId: null };
      await writeEvents(tx, actor, at, requestEvents(next, ['change-request-schedule-suspended']));
    });
  }

  async function runOne(record: ChangeRequestRecord, run: ScheduleRun): Promise<void> {
    const schedule = record.schedule;
    if (!schedule) return;
    const caller = await schedulerOf(schedule);
    const scope = { project: record.project, environment: record.environment };
    const allowed =
      caller !== null && (await deps.policy.allows(caller, 'APPLY_CHANGE_REQUEST', scope).catch(() => false));
    if (!caller || !allowed) {
      await suspend(
        record,
        `${schedule.scheduledBy.username}, who scheduled it, may no longer apply change requests in "${record.environment}".`,
      );
      run.suspended.push(record.id);
      return;
    }
    try {
      await applier.apply(
        {
          expected: record,
          caller,
          actor: caller.actor,
          at: nowIso(deps),
          events: ['change-request-applied', 'change-request-scheduled-application-success'],
        },
        (current, refusal) =>
          current.schedule
            ? {
                ...current,
                failure: refusal.message,
                schedule: {
                  ...current.schedule,
                  status: refusal.kind === 'conflict' ? 'suspended' : 'failed',
                  reason: refusal.message,
                },
              }
            : null,
        (refusal) => [
          refusal.kind === 'conflict'
            ? 'change-request-schedule-suspended'
            : 'change-request-scheduled-application-failure',
        ],
      );
      run.applied.push(record.id);
    } catch (error) {
      if (error instanceof ApplyRefused)
        (error.kind === 'conflict' ? run.suspended : run.failed).push(record.id);
      // Another process got there first (or someone changed the request): nothing to do.
      else if (!(error instanceof FlagstaffError && error.code === 'CONFLICT')) throw error;
    }
  }

  /**
   * Whether this process holds the scheduling lease, taking or renewing it (as addon delivery
   * does: one process at a time does the work, another takes over once the lease expires). A
   * process that does not hold it reads before it writes, so waiting adds no write transaction.
   * The lease saves the others' work; correctness does not rest on it (see `applyIn`).
   */
  async function hold(): Promise<boolean> {
    const at = deps.clock.now().getTime();
    const current = (await deps.store.settings.get(LEASE)) as { holder: string; expiresAt: number } | null;
    if (current && current.holder !== holder && current.expiresAt > at) return false;
    return deps.store.transaction(async (tx) => {
      const lease = (await tx.settings.get(LEASE)) as { holder: string; expiresAt: number } | null;
      if (lease && lease.holder !== holder && lease.expiresAt > at) return false;
      await tx.settings.set(LEASE, { holder, expiresAt: at + leaseMs });
      tookLease = true;
      return true;
    });
  }

  /** Frees the lease so another process takes over at once. */
  async function release(): Promise<void> {
    if (!tookLease) return;
    tookLease = false;
    await deps.store.transaction(async (tx) => {
      const lease = (await tx.settings.get(LEASE)) as { holder: string } | null;
      if (lease?.holder === holder) await tx.settings.set(LEASE, { holder, expiresAt: 0 });
    });
  }

  /** Applies (or suspends) every request due now, oldest due first, while holding the lease. */
  async function runDue(): Promise<ScheduleRun> {
    const run: ScheduleRun = { applied: [], suspended: [], failed: [] };
    if (!(await hold())) return run;
    for (const record of await deps.store.changeRequests.listDue(nowIso(deps))) await runOne(record, run);
    return run;
  }

  return {
    /** One pass over the due schedules; concurrent calls in one process share the pass. */
    runDueSchedules(): Promise<ScheduleRun> {
      running ??= runDue().finally(() => {
        running = null;
      });
      return running;
    },
    start(): void {
      const interval = options.intervalMs ?? 10_000;
      if (interval <= 0 || timer) return;
      timer = setInterval(() => {
        this.runDueSchedules().catch((error: unknown) =>
          deps.logger.error('scheduled change requests could not run', { error: String(error) }),
        );
      }, interval);
      timer.unref?.();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await release().catch((error: unknown) =>
        deps.logger.warn('the change-request scheduling lease was not released', { error: String(error) }),
      );
    },
  };
}

export type ChangeRequestScheduler = ReturnType<typeof createChangeRequestScheduler>;
