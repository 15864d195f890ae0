import { z } from 'zod';
import {
  type SignalEndpoint,
  type SignalEndpointToken,
  type SignalEndpointTokenView,
  type SignalEndpointView,
  signalEndpointInputSchema,
  signalEndpointNameSchema,
  signalEndpointTokenInputSchema,
  signalEndpointTokenViewSchema,
  signalEndpointViewSchema,
  signalSchema,
} from '../../domain/signal.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { hashSecret } from '../access/access-service.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

const TOKEN_BYTES = 32;
/** The reference's defaults: 5 endpoints, 5 tokens each. */
const DEFAULT_ENDPOINTS = 5;
const DEFAULT_TOKENS_PER_ENDPOINT = 5;

const id = z.number().int();

export const signalTokenView = ({
  tokenHash: _hash,
  ...rest
}: SignalEndpointToken): SignalEndpointTokenView => rest;

/** The endpoint, or NOT_FOUND (an id that is no integer names no endpoint). */
export async function requireEndpoint(repos: ReadRepositories, endpointId: number): Promise<SignalEndpoint> {
  const endpoint = Number.isSafeInteger(endpointId) ? await repos.signals.getEndpoint(endpointId) : null;
  if (!endpoint) throw notFound('signal endpoint', endpointId);
  return endpoint;
}

const endpointView = async (
  repos: ReadRepositories,
  endpoint: SignalEndpoint,
): Promise<SignalEndpointView> => ({
  ...endpoint,
  tokens: (await repos.signals.listTokens(endpoint.id)).map(signalTokenView),
});

/** Every endpoint with its tokens (never their secrets). */
export const listSignalEndpoints = defineOperation({
  id: 'signals.endpoints.list',
  summary: 'List signal endpoints',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: z.strictObject({ signalEndpoints: z.array(signalEndpointViewSchema) }),
  run: async (_input, { repos }) => ({
    signalEndpoints: await Promise.all(
      (await repos.signals.listEndpoints()).map((e) => endpointView(repos, e)),
    ),
  }),
});

/** One endpoint with its tokens, or NOT_FOUND. */
export const getSignalEndpoint = defineOperation({
  id: 'signals.endpoints.get',
  summary: 'Get a signal endpoint',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ id }),
  output: signalEndpointViewSchema,
  run: async (input, { repos }) => endpointView(repos, await requireEndpoint(repos, input.id)),
});

/** Creates an endpoint (signal-endpoint-created); LIMIT_EXCEEDED past the endpoint limit. */
export const createSignalEndpoint = defineOperation({
  id: 'signals.endpoints.create',
  summary: 'Create a signal endpoint',
  kind: 'write',
  permission: 'ADMIN',
  input: signalEndpointInputSchema,
  output: signalEndpointViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const limit = deps.signalLimits?.endpoints ?? DEFAULT_ENDPOINTS;
    const existing = await repos.signals.listEndpoints();
    if (existing.length >= limit)
      throw new FlagstaffError(
        'LIMIT_EXCEEDED',
        `The signal endpoints limit is ${limit}; delete one before creating another.`,
        { limit: 'signalEndpoints', value: limit },
      );
    if (existing.some((e) => e.name === body.name))
      throw conflict(`A signal endpoint named "${body.name}" already exists.`, 'name');
    const endpoint = await repos.signals.insertEndpoint({
      name: body.name,
      description: body.description ?? null,
      enabled: body.enabled,
      createdAt: nowIso(deps),
      createdByUserId: actor.userId,
    });
    await writeEvents(repos, actor, endpoint.createdAt, [
      { type: 'signal-endpoint-created', data: endpoint },
    ]);
    return endpointView(repos, endpoint);
  },
});

/** Changes name, description or enabled (signal-endpoint-updated). */
export const updateSignalEndpoint = defineOperation({
  id: 'signals.endpoints.update',
  summary: 'Update a signal endpoint',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({
    id,
    name: signalEndpointNameSchema.optional(),
    description: z.string().nullable().optional(),
    enabled: z.boolean().optional(),
  }),
  output: signalEndpointViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const before = await requireEndpoint(repos, body.id);
    if (
      body.name !== undefined &&
      body.name !== before.name &&
      (await repos.signals.getEndpointByName(body.name))
    )
      throw conflict(`A signal endpoint named "${body.name}" already exists.`, 'name');
    const after: SignalEndpoint = {
      ...before,
      name: body.name ?? before.name,
      description: body.description === undefined ? before.description : body.description,
      enabled: body.enabled ?? before.enabled,
    };
    await repos.signals.updateEndpoint(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'signal-endpoint-updated', data: after, preData: before },
    ]);
    return endpointView(repos, after);
  },
});

/** Deletes an endpoint with its tokens and signals (signal-endpoint-deleted). */
export const deleteSignalEndpoint = defineOperation({
  id: 'signals.endpoints.delete',
  summary: 'Delete a signal endpoint',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ id }),
  output: z.void(),
  run: async (input, { deps, repos, actor }) => {
    const before = await requireEndpoint(repos, input.id);
    await repos.signals.deleteEndpoint(input.id);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'signal-endpoint-deleted', preData: before }]);
  },
});

/** Tokens of an endpoint, without secrets. */
export const listSignalEndpointTokens = defineOperation({
  id: 'signals.tokens.list',
  summary: 'List the tokens of a signal endpoint',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ endpointId: id }),
  output: z.array(signalEndpointTokenViewSchema),
  run: async ({ endpointId }, { repos }) => {
    await requireEndpoint(repos, endpointId);
    return (await repos.signals.listTokens(endpointId)).map(signalTokenView);
  },
});

/**
 * Creates a token (signal-endpoint-token-created). The answer's `token` is the only time the secret
 * is shown; only its hash is stored. LIMIT_EXCEEDED past the per-endpoint limit.
 */
export const createSignalEndpointToken = defineOperation({
  id: 'signals.tokens.create',
  summary: 'Create a signal endpoint token',
  kind: 'write',
  permission: 'ADMIN',
  input: signalEndpointTokenInputSchema.extend({ endpointId: id }),
  output: signalEndpointTokenViewSchema.extend({
    token: z.string().describe('The secret, shown only here.'),
  }),
  run: async ({ endpointId, name }, { deps, repos, actor }) => {
    const endpoint = await requireEndpoint(repos, endpointId);
    const limit = deps.signalLimits?.tokensPerEndpoint ?? DEFAULT_TOKENS_PER_ENDPOINT;
    if ((await repos.signals.listTokens(endpointId)).length >= limit)
      throw new FlagstaffError(
        'LIMIT_EXCEEDED',
        `The tokens per signal endpoint limit is ${limit}; endpoint "${endpoint.name}" has reached it.`,
        { limit: 'tokensPerEndpoint', value: limit },
      );
    const secret = deps.ids.randomHex(TOKEN_BYTES);
    const token = await repos.signals.insertToken({
      signalEndpointId: endpointId,
      name,
      tokenHash: hashSecret(secret),
      createdAt: nowIso(deps),
      createdByUserId: actor.userId,
    });
    await writeEvents(repos, actor, token.createdAt, [
      { type: 'signal-endpoint-token-created', data: signalTokenView(token) },
    ]);
    return { ...signalTokenView(token), token: secret };
  },
});

/** Deletes a token of an endpoint (signal-endpoint-token-deleted). */
export const deleteSignalEndpointToken = defineOperation({
  id: 'signals.tokens.delete',
  summary: 'Delete a signal endpoint token',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ endpointId: id, tokenId: id }),
  output: z.void(),
  run: async ({ endpointId, tokenId }, { deps, repos, actor }) => {
    await requireEndpoint(repos, endpointId);
    const before = (await repos.signals.listTokens(endpointId)).find((t) => t.id === tokenId);
    if (!before) throw notFound('signal endpoint token', tokenId);
    await repos.signals.deleteToken(endpointId, tokenId);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'signal-endpoint-token-deleted', preData: signalTokenView(before) },
    ]);
  },
});

/** Signals an endpoint received, newest first. */
export const listSignals = defineOperation({
  id: 'signals.list',
  summary: 'List the signals an endpoint received',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ endpointId: id, limit: z.number().int().min(1).max(1000).default(10) }),
  output: z.strictObject({ signals: z.array(signalSchema) }),
  run: async ({ endpointId, limit }, { repos }) => {
    await requireEndpoint(repos, endpointId);
    return { signals: await repos.signals.listSignals(endpointId, limit) };
  },
});
