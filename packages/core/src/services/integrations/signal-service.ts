import type { Caller } from '../../auth/caller.js';
import type {
  ActionSet,
  ActionSetInput,
  Signal,
  SignalEndpointTokenView,
  SignalEndpointView,
} from '../../domain/signal.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { createActionSet, deleteActionSet, listActionSets } from './signal-action-sets.js';
import {
  createSignalEndpoint,
  createSignalEndpointToken,
  deleteSignalEndpoint,
  deleteSignalEndpointToken,
  getSignalEndpoint,
  listSignalEndpoints,
  listSignalEndpointTokens,
  listSignals,
  updateSignalEndpoint,
} from './signal-operations.js';
import { receiveSignal, SIGNAL_SENDER } from './signal-receipt.js';

export type { SignalEndpointTokenView, SignalEndpointView } from '../../domain/signal.js';

type EndpointInput = { name: string; description?: string | null | undefined; enabled?: boolean | undefined };

/**
 * Signal endpoints (ADMIN), their tokens and the action sets reacting to them, as typed wrappers
 * over the operations in `signal-operations.ts` and `signal-action-sets.ts`; and receiving signals,
 * which the endpoint's own tokens authenticate (no caller), then runs the matching action sets.
 */
export function createSignalService(run: OperationRunner) {
  return {
    endpoints: {
      /** Every endpoint with its tokens (never their secrets). */
      list: async (caller: Caller): Promise<SignalEndpointView[]> =>
        (await run(listSignalEndpoints, caller, {})).signalEndpoints,
      /** One endpoint with its tokens, or NOT_FOUND. */
      get: (caller: Caller, id: number): Promise<SignalEndpointView> =>
        run(getSignalEndpoint, caller, { id }),
      /** Creates an endpoint; LIMIT_EXCEEDED past the endpoint limit. */
      create: (caller: Caller, input: EndpointInput): Promise<SignalEndpointView> =>
        run(createSignalEndpoint, caller, input),
      /** Changes name, description or enabled. */
      update: (caller: Caller, id: number, input: Partial<EndpointInput>): Promise<SignalEndpointView> =>
        run(updateSignalEndpoint, caller, { ...input, id }),
      /** Deletes an endpoint with its tokens and signals. */
      delete: (caller: Caller, id: number): Promise<void> => run(deleteSignalEndpoint, caller, { id }),
    },

    tokens: {
      /** Tokens of an endpoint, without secrets. */
      list: (caller: Caller, endpointId: number): Promise<SignalEndpointTokenView[]> =>
        run(listSignalEndpointTokens, caller, { endpointId }),
      /** Creates a token: the answer's `token` is the only time the secret is shown. */
      create: (
        caller: Caller,
        endpointId: number,
        input: { name: string },
      ): Promise<SignalEndpointTokenView & { token: string }> =>
        run(createSignalEndpointToken, caller, { ...input, endpointId }),
      /** Deletes a token of an endpoint. */
      delete: (caller: Caller, endpointId: number, tokenId: number): Promise<void> =>
        run(deleteSignalEndpointToken, caller, { endpointId, tokenId }),
    },

    /** Signals an endpoint received, newest first. */
    listSignals: async (caller: Caller, endpointId: number, limit = 10): Promise<Signal[]> =>
      (await run(listSignals, caller, { endpointId, limit })).signals,

    /**
     * POST /api/signal-endpoint/:name: stores the signal and runs the matching action sets (see
     * `receiveSignal`); the endpoint's token authenticates, so there is no caller.
     */
    receive: (
      endpointName: string,
      bearerSecret: string | null | undefined,
      payload: unknown,
    ): Promise<{ signalId: number }> =>
      run(receiveSignal, SIGNAL_SENDER, { endpointName, authorization: bearerSecret, payload }),

    /** What to do when a signal endpoint receives a matching payload. */
    actionSets: {
      /** Every action set, ordered by id. */
      list: async (caller: Caller): Promise<ActionSet[]> => (await run(listActionSets, caller, {})).actions,
      /** Creates an action set; its source endpoint, project and actor must exist. */
      create: (caller: Caller, input: ActionSetInput): Promise<ActionSet> =>
        run(createActionSet, caller, input),
      /** Deletes an action set. */
      delete: (caller: Caller, id: number): Promise<void> => run(deleteActionSet, caller, { id }),
    },
  };
}

export type SignalService = ReturnType<typeof createSignalService>;
