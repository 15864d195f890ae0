import type { Caller } from '../../auth/caller.js';
import { type ChangeInput, stateInputSchema } from '../../domain/change-request.js';
import { parseWith } from '../../domain/parse.js';
import { FlagstaffError } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { ApplyRefused, createApplier } from './change-request-apply.js';
import { save } from './change-request-changes.js';
import {
  addChangeRequestChanges,
  addChangeRequestComment,
  discardChangeRequestChange,
  discardChangeRequestDraft,
  editChangeRequestChange,
  setChangeRequestReviewers,
  updateChangeRequestTitle,
} from './change-request-commands.js';
import { getChangeRequestConfig, setChangeRequestConfig } from './change-request-config.js';
import {
  countActionableChangeRequests,
  countChangeRequests,
  getChangeRequest,
  listAvailableReviewers,
  listChangeRequests,
  listDraftChangeRequests,
  listOpenChangeRequests,
  listPendingForFeature,
  listScheduledChangeRequests,
  searchChangeRequests,
} from './change-request-reads.js';
import { requireRequest, userOf } from './change-request-records.js';
import { transition } from './change-request-states.js';
import { type ChangeRequestView, viewOf } from './change-request-view.js';

export { requireRequest, userOf } from './change-request-records.js';

/**
 * Change requests for in-process callers: typed wrappers over the operations of
 * `change-request-reads.ts`, `change-request-config.ts` and `change-request-commands.ts`; and
 * `changeState`, still a service method: applying runs the changes in a transaction of its own and
 * records a refused apply in another, which the runner's one transaction per write cannot hold.
 */
export function createChangeRequestService(deps: ServiceDeps, run: OperationRunner) {
  const { store } = deps;
  const applier = createApplier(deps);
  const view = (record: Parameters<typeof viewOf>[1]): Promise<ChangeRequestView> => viewOf(store, record);

  /** Reads a request for a state change: anyone who sees the project; the transition judges who. */
  async function forCommand(caller: Caller, project: string, id: number) {
    await deps.policy.require(caller, 'NONE', { project });
    const record = await requireRequest(store, project, id);
    const actor = await deps.policy.permit(caller, 'NONE', { project, environment: record.environment });
    return { record, actor };
  }

  return {
    getConfig: (caller: Caller, project: string) => run(getChangeRequestConfig, caller, { project }),
    setConfig: async (
      caller: Caller,
      project: string,
      environment: string,
      input: { changeRequestsEnabled: boolean; requiredApprovals?: number | undefined },
    ): Promise<void> => {
      await run(setChangeRequestConfig, caller, { ...input, project, environment });
    },
    get: (caller: Caller, project: string, id: number): Promise<ChangeRequestView> =>
      run(getChangeRequest, caller, { project, id }),
    /** Every request of the project the caller may see. */
    list: (caller: Caller, project: string): Promise<ChangeRequestView[]> =>
      run(listChangeRequests, caller, { project }),
    /** The caller's drafts in the project. */
    draft: (caller: Caller, project: string): Promise<ChangeRequestView[]> =>
      run(listDraftChangeRequests, caller, { project }),
    /** Requests still waiting for something: the caller's drafts, in review, approved, scheduled. */
    open: (caller: Caller, project: string): Promise<ChangeRequestView[]> =>
      run(listOpenChangeRequests, caller, { project }),
    /** Open requests with a change to one feature. */
    pendingForFeature: (caller: Caller, project: string, feature: string): Promise<ChangeRequestView[]> =>
      run(listPendingForFeature, caller, { project, feature }),
    /** Scheduled requests changing a strategy or a feature's variants. */
    scheduled: (caller: Caller, project: string, query: { strategyId?: string; variantForFlag?: string }) =>
      run(listScheduledChangeRequests, caller, { ...query, project }),
    /** How many requests of the project are in each state. */
    count: (caller: Caller, project: string) => run(countChangeRequests, caller, { project }),
    /** How many requests wait for the caller. */
    actionable: (caller: Caller, project: string) => run(countActionableChangeRequests, caller, { project }),
    /** Users who may approve requests in the environment. */
    availableReviewers: (caller: Caller, project: string, environment: string) =>
      run(listAvailableReviewers, caller, { project, environment }),
    /** Requests across the projects the caller may see. */
    search: (
      caller: Caller,
      query: {
        createdBy?: number | string;
        requestedApproverId?: number | string;
        state?: 'open' | 'closed';
        offset?: number | string;
        limit?: number | string;
      },
    ) => run(searchChangeRequests, caller, query),

    /** Adds one change or a list (ChangeInput; checked by the operation) to the caller's draft. */
    addChanges: (
      caller: Caller,
      project: string,
      environment: string,
      changes: unknown,
    ): Promise<ChangeRequestView> => run(addChangeRequestChanges, caller, { project, environment, changes }),
    /** Replaces one change; records the state now, which resolves a conflict. */
    editChange: (
      caller: Caller,
      project: string,
      id: number,
      changeId: number,
      input: ChangeInput,
    ): Promise<ChangeRequestView> =>
      run(editChangeRequestChange, caller, { ...input, project, id, changeId }),
    /** Removes one change; a draft left empty is discarded too. */
    discardChange: async (caller: Caller, project: string, id: number, changeId: number): Promise<void> => {
      await run(discardChangeRequestChange, caller, { project, id, changeId });
    },
    /** Deletes a draft. */
    discardDraft: async (caller: Caller, project: string, id: number): Promise<void> => {
      await run(discardChangeRequestDraft, caller, { project, id });
    },
    updateTitle: async (
      caller: Caller,
      project: string,
      id: number,
      input: { title: string },
    ): Promise<void> => {
      await run(updateChangeRequestTitle, caller, { ...input, project, id });
    },
    addComment: async (
      caller: Caller,
      project: string,
      id: number,
      input: { text: string },
    ): Promise<void> => {
      await run(addChangeRequestComment, caller, { ...input, project, id });
    },
    setReviewers: async (
      caller: Caller,
      project: string,
      id: number,
      input: { reviewers: number[] },
    ): Promise<void> => {
      await run(setChangeRequestReviewers, caller, { ...input, project, id });
    },

    /** PUT …/state: moves the request through its states; `Applied` applies every change at once. */
    async changeState(
      caller: Caller,
      project: string,
      id: number,
      input: unknown,
    ): Promise<ChangeRequestView> {
      const { record, actor } = await forCommand(caller, project, id);
      const body = parseWith(stateInputSchema, input);
      const scope = { project, environment: record.environment };
      const who = {
        user: userOf(caller),
        mayApprove: await deps.policy.allows(caller, 'APPROVE_CHANGE_REQUEST', scope),
        mayApply: await deps.policy.allows(caller, 'APPLY_CHANGE_REQUEST', scope),
      };
      const at = nowIso(deps);
      const effect = transition(record, body.state, who, at, {
        scheduledAt: body.scheduledAt,
        now: deps.clock.now().getTime(),
      });
      const comments = body.comment
        ? [
            ...record.comments,
            {
              id: Math.max(0, ...record.comments.map((c) => c.id)) + 1,
              text: body.comment,
              user: who.user,
              createdAt: at,
            },
          ]
        : record.comments;
      if (effect.kind === 'state') {
        const next = { ...effect.record, comments };
        await inTransaction(deps, (tx) => save(tx, actor, record, next, effect.events));
        return view(next);
      }
      const applied = await applier
        .apply({ expected: record, caller, actor, at, events: ['change-request-applied'], schedule: null })
        .catch((error: unknown) => {
          if (error instanceof ApplyRefused)
            throw new FlagstaffError('CONFLICT', `The change request was not applied: ${error.message}`);
          throw error;
        });
      if (body.comment)
        await inTransaction(deps, (tx) => save(tx, actor, applied, { ...applied, comments }, []));
      return view({ ...applied, comments });
    },
  };
}

export type ChangeRequestService = ReturnType<typeof createChangeRequestService>;
