import { z } from 'zod';
import { callerOf } from '../../auth/caller.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/store.js';
import { hashSecret } from '../access/access-service.js';
import { createSignalActionRunner } from './signal-actions.js';

/** The contract's payload limit for signals (100 kB of JSON). */
const MAX_PAYLOAD_BYTES = 100 * 1024;

/** Who sends a signal: nobody the policy knows; the endpoint's own token authenticates the request. */
export const SIGNAL_SENDER = callerOf({ kind: 'anonymous', name: 'signal-endpoint' });

const rateLimited = (perSecond: number) =>
  new FlagstaffError(
    'RATE_LIMITED',
    `Signal endpoints accept at most ${perSecond} request${perSecond === 1 ? '' : 's'} per second; try again shortly.`,
    { limit: 'requestsPerSecond', value: perSecond, retryAfterSeconds: 1 },
  );

/**
 * Throws RATE_LIMITED when the endpoint already took its share of requests this second. Counted in
 * the store, inside the transaction that stores the signal: transactions of a store take turns (on
 * PostgreSQL across processes too), so every server on one database shares the limit.
 */
async function takeRateSlot(tx: Repositories, endpointId: number, now: number, perSecond: number) {
  if (perSecond <= 0) throw rateLimited(perSecond);
  const latest = await tx.signals.listSignals(endpointId, perSecond);
  const oldest = latest[perSecond - 1];
  if (oldest !== undefined && now - Date.parse(oldest.createdAt) < 1_000) throw rateLimited(perSecond);
}

/** One action runner per Flagstaff (its services are built once). */
const actionRunners = new WeakMap<OperationDeps, ReturnType<typeof createSignalActionRunner>>();
const actionRunnerOf = (deps: OperationDeps) => {
  let runner = actionRunners.get(deps);
  if (!runner) {
    runner = createSignalActionRunner(deps);
    actionRunners.set(deps, runner);
  }
  return runner;
};

/**
 * `POST /api/signal-endpoint/:name`. NOT_FOUND for an unknown or disabled endpoint, UNAUTHENTICATED
 * for a missing or wrong token, RATE_LIMITED past the per-second limit. Stores the signal with its
 * token's name, then runs the matching enabled action sets. Public to the policy (the endpoint's
 * token authenticates); a command: the signal is stored in a transaction of its own, so the action
 * sets run only once it is committed (each in its own).
 */
export const receiveSignal = defineOperation({
  id: 'signals.receive',
  summary: 'Send a signal',
  kind: 'command',
  permission: 'PUBLIC',
  input: z.object({
    endpointName: z.string(),
    authorization: z.string().nullish(),
    payload: z.unknown(),
  }),
  output: z.strictObject({ signalId: z.number().int() }),
  run: async ({ endpointName, authorization, payload }, { deps, repos, transaction }) => {
    const endpoint = await repos.signals.getEndpointByName(endpointName);
    if (!endpoint?.enabled) throw notFound('signal endpoint', endpointName);
    const secret = (authorization ?? '').replace(/^Bearer\s+/i, '').trim();
    const hash = secret ? hashSecret(secret) : null;
    const token = hash
      ? (await repos.signals.listTokens(endpoint.id)).find((t) => t.tokenHash === hash)
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
    const perSecond = deps.signalLimits?.requestsPerSecond ?? 1;
    const signal = await transaction(async (tx) => {
      const now = deps.clock.now();
      await takeRateSlot(tx, endpoint.id, now.getTime(), perSecond);
      return tx.signals.insertSignal({
        source: 'signal-endpoint',
        sourceId: endpoint.id,
        payload: body,
        createdAt: now.toISOString(),
        tokenName: token.name,
      });
    });
    await actionRunnerOf(deps)(endpoint, body);
    return { signalId: signal.id };
  },
});
