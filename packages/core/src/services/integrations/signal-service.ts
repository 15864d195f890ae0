import type { Caller } from '../../auth/caller.js';
import type {
  ActionSet,
  ActionSetInput,
  Signal,
  SignalEndpointTokenView,
  SignalEndpointView,
} from '../../domain/signal.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { Repositories } from '../../ports/store.js';
import { hashSecret } from '../access/access-service.js';
import { inTransaction, type ServiceDeps } from '../deps.js';
import { createActionSet, deleteActionSet, listActionSets } from './signal-action-sets.js';
import { createSignalActionRunner } from './signal-actions.js';
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

export type { SignalEndpointTokenView, SignalEndpointView } from '../../domain/signal.js';

/** The contract's payload limit for signals (100 kB of JSON). */
const MAX_PAYLOAD_BYTES = 100 * 1024;

type EndpointInput = { name: string; description?: string | null | undefined; enabled?: boolean | undefined };

/**
 * Signal endpoints (ADMIN), their tokens and the action sets reacting to them, as typed wrappers
 * over the operations in `signal-operations.ts` and `signal-action-sets.ts`; and receiving signals,
 * which the endpoint's own tokens authenticate (no caller), then runs the matching action sets.
 */
export function createSignalService(
  deps: ServiceDeps & { limits?: { requestsPerSecond?: number | undefined } | undefined },
  run: OperationRunner,
) {
  const { store } = deps;
  const perSecond = deps.limits?.requestsPerSecond ?? 1;
  const runActions = createSignalActionRunner(deps);

  /**
   * Throws RATE_LIMITED when the endpoint already took its share of requests this second. Counted
   * in the store, inside the transaction that stores the signal: transactions of a store take turns
   * (on PostgreSQL across processes too), so every server on one database shares the limit.
   */
  async function takeRateSlot(tx: Repositories, endpointId: number, now: number): Promise<void> {
    if (perSecond <= 0) throw rateLimited();
    const latest = await tx.signals.listSignals(endpointId, perSecond);
    const oldest = latest[perSecond - 1];
    if (oldest !== undefined && now - Date.parse(oldest.createdAt) < 1_000) throw rateLimited();
  }

  const rateLimited = () =>
    new FlagstaffError(
      'RATE_LIMITED',
      `Signal endpoints accept at most ${perSecond} request${perSecond === 1 ? '' : 's'} per second; try again shortly.`,
      { limit: 'requestsPerSecond', value: perSecond, retryAfterSeconds: 1 },
    );

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
     * POST /api/signal-endpoint/:name. NOT_FOUND for an unknown or disabled endpoint, UNAUTHENTICATED
     * for a missing or wrong token, RATE_LIMITED past the per-second limit. Stores the signal with
     * its token's name, then runs the matching enabled action sets.
     */
    async receive(
      endpointName: string,
      bearerSecret: string | null | undefined,
      payload: unknown,
    ): Promise<{ signalId: number }> {
      const endpoint = await store.signals.getEndpointByName(endpointName);
      if (!endpoint?.enabled) throw notFound('signal endpoint', endpointName);
      const secret = (bearerSecret ?? '').replace(/^Bearer\s+/i, '').trim();
      const hash = secret ? hashSecret(secret) : null;
      const token = hash
        ? (await store.signals.listTokens(endpoint.id)).find((t) => t.tokenHash === hash)
        : undefined;
      if (!token)
        throw new FlagstaffError(
          'UNAUTHENTICATED',
          `Signal endpoint "${endpointName}" needs one of its tokens as "Authorization: Bearer <token>".`,
        );
      const body = payload === undefined ? {} : payload;
      if (Buffer.byteLength(JSON.stringify(body) ?? '') > MAX_PAYLOAD_BYTES)
        throw new FlagstaffError('LIMIT_EXCEEDED', 'The signal payload exceeds the 100 kB limit.', {
          limit: 'payloadSize',
          value: MAX_PAYLOAD_BYTES,
        });
      const signal = await inTransaction(deps, async (tx) => {
        const now = deps.clock.now();
        await takeRateSlot(tx, endpoint.id, now.getTime());
        return tx.signals.insertSignal({
          source: 'signal-endpoint',
          sourceId: endpoint.id,
          payload: body,
          createdAt: now.toISOString(),
          tokenName: token.name,
        });
      });
      await runActions(endpoint, body);
      return { signalId: signal.id };
    },

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
