import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import {
  type SignalEndpoint,
  type SignalEndpointToken,
  signalEndpointInputSchema,
  signalEndpointNameSchema,
  signalEndpointTokenInputSchema,
} from '../../domain/signal.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories, Repositories } from '../../ports/store.js';
import { hashSecret } from '../access/access-service.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { createActionSets } from './signal-action-sets.js';
import { createSignalActionRunner } from './signal-actions.js';

export type SignalEndpointTokenView = Omit<SignalEndpointToken, 'tokenHash'>;
export interface SignalEndpointView extends SignalEndpoint {
  tokens: SignalEndpointTokenView[];
}

const updateEndpointSchema = z.object({
  name: signalEndpointNameSchema.optional(),
  description: z.string().nullable().optional(),
  enabled: z.boolean().optional(),
});

/** The contract's payload limit for signals (100 kB of JSON). */
const MAX_PAYLOAD_BYTES = 100 * 1024;
const TOKEN_BYTES = 32;

const tokenView = ({ tokenHash: _hash, ...rest }: SignalEndpointToken): SignalEndpointTokenView => rest;

/** Signal endpoints (ADMIN), their tokens, receiving signals, and the action sets reacting to them. */
export function createSignalService(
  deps: ServiceDeps & {
    limits?: { endpoints?: number; tokensPerEndpoint?: number; requestsPerSecond?: number } | undefined;
  },
) {
  const { store } = deps;
  const maxEndpoints = deps.limits?.endpoints ?? 5;
  const maxTokens = deps.limits?.tokensPerEndpoint ?? 5;
  const perSecond = deps.limits?.requestsPerSecond ?? 1;
  const runActions = createSignalActionRunner(deps);

  async function requireEndpoint(repos: ReadRepositories, id: number): Promise<SignalEndpoint> {
    const endpoint = Number.isSafeInteger(id) ? await repos.signals.getEndpoint(id) : null;
    if (!endpoint) throw notFound('signal endpoint', id);
    return endpoint;
  }

  async function endpointView(
    repos: ReadRepositories,
    endpoint: SignalEndpoint,
  ): Promise<SignalEndpointView> {
    return { ...endpoint, tokens: (await repos.signals.listTokens(endpoint.id)).map(tokenView) };
  }

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
      async list(caller: Caller): Promise<SignalEndpointView[]> {
        await deps.policy.require(caller, 'ADMIN', {});
        return Promise.all((await store.signals.listEndpoints()).map((e) => endpointView(store, e)));
      },

      /** One endpoint with its tokens, or NOT_FOUND. */
      async get(caller: Caller, id: number): Promise<SignalEndpointView> {
        await deps.policy.require(caller, 'ADMIN', {});
        return endpointView(store, await requireEndpoint(store, id));
      },

      /** Creates an endpoint (signal-endpoint-created); LIMIT_EXCEEDED past the endpoint limit. */
      async create(caller: Caller, input: unknown): Promise<SignalEndpointView> {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        const body = parseWith(signalEndpointInputSchema, input);
        return inTransaction(deps, async (tx) => {
          const existing = await tx.signals.listEndpoints();
          if (existing.length >= maxEndpoints)
            throw new FlagstaffError(
              'LIMIT_EXCEEDED',
              `The signal endpoints limit is ${maxEndpoints}; delete one before creating another.`,
              { limit: 'signalEndpoints', value: maxEndpoints },
            );
          if (existing.some((e) => e.name === body.name))
            throw conflict(`A signal endpoint named "${body.name}" already exists.`, 'name');
          const endpoint = await tx.signals.insertEndpoint({
            name: body.name,
            description: body.description ?? null,
            enabled: body.enabled,
            createdAt: nowIso(deps),
            createdByUserId: actor.userId,
          });
          await writeEvents(tx, actor, endpoint.createdAt, [
            { type: 'signal-endpoint-created', data: endpoint },
          ]);
          return endpointView(tx, endpoint);
        });
      },

      /** Changes name, description or enabled (signal-endpoint-updated). */
      async update(caller: Caller, id: number, input: unknown): Promise<SignalEndpointView> {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        const body = parseWith(updateEndpointSchema, input);
        return inTransaction(deps, async (tx) => {
          const before = await requireEndpoint(tx, id);
          if (
            body.name !== undefined &&
            body.name !== before.name &&
            (await tx.signals.getEndpointByName(body.name))
          )
            throw conflict(`A signal endpoint named "${body.name}" already exists.`, 'name');
          const after: SignalEndpoint = {
            ...before,
            name: body.name ?? before.name,
            description: body.description === undefined ? before.description : body.description,
            enabled: body.enabled ?? before.enabled,
          };
          await tx.signals.updateEndpoint(after);
          await writeEvents(tx, actor, nowIso(deps), [
            { type: 'signal-endpoint-updated', data: after, preData: before },
          ]);
          return endpointView(tx, after);
        });
      },

      /** Deletes an endpoint with its tokens and signals (signal-endpoint-deleted). */
      async delete(caller: Caller, id: number): Promise<void> {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        return inTransaction(deps, async (tx) => {
          const before = await requireEndpoint(tx, id);
          await tx.signals.deleteEndpoint(id);
          await writeEvents(tx, actor, nowIso(deps), [{ type: 'signal-endpoint-deleted', preData: before }]);
        });
      },
    },

    tokens: {
      /** Tokens of an endpoint, without secrets. */
      async list(caller: Caller, endpointId: number): Promise<SignalEndpointTokenView[]> {
        await deps.policy.require(caller, 'ADMIN', {});
        await requireEndpoint(store, endpointId);
        return (await store.signals.listTokens(endpointId)).map(tokenView);
      },

      /**
       * Creates a token (signal-endpoint-token-created). The returned `token` is the only time the
       * secret is shown; only its hash is stored. LIMIT_EXCEEDED past the per-endpoint limit.
       */
      async create(
        caller: Caller,
        endpointId: number,
        input: unknown,
      ): Promise<SignalEndpointTokenView & { token: string }> {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        const body = parseWith(signalEndpointTokenInputSchema, input);
        return inTransaction(deps, async (tx) => {
          const endpoint = await requireEndpoint(tx, endpointId);
          if ((await tx.signals.listTokens(endpointId)).length >= maxTokens)
            throw new FlagstaffError(
              'LIMIT_EXCEEDED',
              `The tokens per signal endpoint limit is ${maxTokens}; endpoint "${endpoint.name}" has reached it.`,
              { limit: 'tokensPerEndpoint', value: maxTokens },
            );
          const secret = deps.ids.randomHex(TOKEN_BYTES);
          const token = await tx.signals.insertToken({
            signalEndpointId: endpointId,
            name: body.name,
            tokenHash: hashSecret(secret),
            createdAt: nowIso(deps),
            createdByUserId: actor.userId,
          });
          await writeEvents(tx, actor, token.createdAt, [
            { type: 'signal-endpoint-token-created', data: tokenView(token) },
          ]);
          return { ...tokenView(token), token: secret };
        });
      },

      /** Deletes a token of an endpoint (signal-endpoint-token-deleted). */
      async delete(caller: Caller, endpointId: number, tokenId: number): Promise<void> {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        return inTransaction(deps, async (tx) => {
          await requireEndpoint(tx, endpointId);
          const before = (await tx.signals.listTokens(endpointId)).find((t) => t.id === tokenId);
          if (!before) throw notFound('signal endpoint token', tokenId);
          await tx.signals.deleteToken(endpointId, tokenId);
          await writeEvents(tx, actor, nowIso(deps), [
            { type: 'signal-endpoint-token-deleted', preData: tokenView(before) },
          ]);
        });
      },
    },

    /** Signals an endpoint received, newest first. */
    async listSignals(caller: Caller, endpointId: number, limit = 10) {
      await deps.policy.require(caller, 'ADMIN', {});
      await requireEndpoint(store, endpointId);
      return store.signals.listSignals(endpointId, limit);
    },

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

    actionSets: createActionSets(deps),
  };
}

export type SignalService = ReturnType<typeof createSignalService>;
