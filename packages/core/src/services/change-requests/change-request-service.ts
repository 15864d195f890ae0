import type { Caller } from '../../auth/caller.js';
import type { ChangeInput, StateInput } from '../../domain/change-request.js';
import type { OperationRunner } from '../../operations/run-operation.js';
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
import { changeChangeRequestState } from './change-request-state-change.js';
import type { ChangeRequestView } from './change-request-view.js';

export { requireRequest, userOf } from './change-request-records.js';

/**
 * Change requests for in-process callers: typed wrappers over the operations of
 * `change-request-reads.ts`, `change-request-config.ts`, `change-request-commands.ts` and
 * `change-request-state-change.ts`.
 */
export function createChangeRequestService(run: OperationRunner) {
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
    changeState: (
      caller: Caller,
      project: string,
      id: number,
      input: StateInput,
    ): Promise<ChangeRequestView> => run(changeChangeRequestState, caller, { ...input, project, id }),
  };
}

export type ChangeRequestService = ReturnType<typeof createChangeRequestService>;
