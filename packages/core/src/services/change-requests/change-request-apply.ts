import type { Caller } from '../../auth/caller.js';
import type { ChangeRequestRecord, ChangeRequestSchedule } from '../../domain/change-request.js';
import type { EventType } from '../../domain/event.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Actor, ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { conflictOf, createChangeRunner } from './change-actions.js';

/** Why a request could not be applied: a change conflicts, or a command refused it. */
export class ApplyRefused extends Error {
  constructor(
    message: string,
    readonly kind: 'conflict' | 'error',
  ) {
    super(message);
  }
}

/** The events a request's own life records, beside the feature events its changes write. */
export const requestEvents = (record: ChangeRequestRecord, types: readonly string[]) =>
  types.map((type) => ({
    type: type as EventType,
    project: record.project,
    environment: record.environment,
    data: { changeRequestId: record.id, title: record.title, state: record.state },
  }));

const describe = (record: ChangeRequestRecord, index: number): string => {
  const change = record.changes[index];
  return `Change ${index + 1} (${change?.action}${change?.feature ? ` on "${change.feature}"` : ''})`;
};

/** What a successful apply leaves: the request Applied, and the events to record. */
export interface ApplyPlan {
  /** The request as read before; applying refuses when it changed meanwhile. */
  expected: ChangeRequestRecord;
  caller: Caller;
  actor: Actor;
  at: string;
  events: readonly string[];
  schedule?: ChangeRequestSchedule | null;
}

/**
 * Applies every change of a request in ONE transaction, through the direct routes' commands, then
 * marks it Applied. Any conflict or refusal rolls everything back; the request then records why
 * (in its own transaction) and `ApplyRefused` says it. A request changed by someone else meanwhile
 * (another process applied it) is not applied twice: CONFLICT.
 */
export function createApplier(deps: ServiceDeps) {
  const run = createChangeRunner(deps);

  async function applyIn(tx: Repositories, plan: ApplyPlan): Promise<ChangeRequestRecord> {
    const { expected } = plan;
    const current = await tx.changeRequests.get(expected.id);
    if (!current || current.updatedAt !== expected.updatedAt || current.state !== expected.state)
      throw new FlagstaffError(
        'CONFLICT',
        `Change request ${expected.id} changed meanwhile; reload it and try again.`,
      );
    const scope = { project: current.project, environment: current.environment };
    for (const [i, change] of current.changes.entries()) {
      const conflict = await conflictOf(tx, scope, change);
      if (conflict) throw new ApplyRefused(`${describe(current, i)}: ${conflict.message}`, 'conflict');
    }
    for (const [i, change] of current.changes.entries()) {
      try {
        await run(tx, plan.caller, plan.actor, scope, change);
      } catch (error) {
        if (error instanceof FlagstaffError && error.code !== 'STORE_UNAVAILABLE')
          throw new ApplyRefused(`${describe(current, i)} no longer applies: ${error.message}`, 'error');
        throw error;
      }
    }
    const applied: ChangeRequestRecord = {
      ...current,
      state: 'Applied',
      updatedAt: plan.at,
      failure: null,
      schedule: plan.schedule === undefined ? current.schedule : plan.schedule,
    };
    await tx.changeRequests.update(applied);
    await writeEvents(tx, plan.actor, plan.at, requestEvents(applied, plan.events));
    return applied;
  }

  return {
    /** Applies the request; on refusal records why (`failure`, or `onRefused`'s record) and rethrows. */
    async apply(
      plan: ApplyPlan,
      onRefused: (current: ChangeRequestRecord, refusal: ApplyRefused) => ChangeRequestRecord | null = (
        c,
        r,
      ) => ({
        ...c,
        failure: r.message,
      }),
      refusalEvents: (refusal: ApplyRefused) => readonly string[] = () => [],
    ): Promise<ChangeRequestRecord> {
      try {
        return await deps.store.transaction((tx) => applyIn(tx, plan));
      } catch (error) {
        if (!(error instanceof ApplyRefused)) throw error;
        await deps.store.transaction(async (tx) => {
          const current = await tx.changeRequests.get(plan.expected.id);
          if (!current || current.updatedAt !== plan.expected.updatedAt) return;
          const next = onRefused(current, error);
          if (!next) return;
          await tx.changeRequests.update(next);
          await writeEvents(tx, plan.actor, plan.at, requestEvents(next, refusalEvents(error)));
        });
        throw error;
      }
    },
  };
}
