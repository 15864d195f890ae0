import {
  clientFeatureSchema,
  clientFeaturesResponseSchema,
  etagMatches,
  frontendResponseSchema,
  notFound,
} from '@flagstaff/core';
import { z } from 'zod';
import { preparedReply } from '../encoding.js';
import { defineRoutes, type RouteContext, rawJson, reply } from '../route.js';

const strings = (value: unknown): string[] | undefined => {
  const list = (Array.isArray(value) ? value : [value]).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  return list.length > 0 ? list : undefined;
};

const CONTEXT_FIELDS = new Set([
  'appName',
  'environment',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
]);

/**
 * The frontend API's context from query parameters: known fields at the top level, `properties[x]`
 * and any other parameter as a property (as the reference's frontend API reads them).
 */
function queryContext({ query, request }: RouteContext): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue;
    const property = /^properties\[(.+)\]$/.exec(key)?.[1];
    if (CONTEXT_FIELDS.has(key)) context[key] = value;
    else properties[property ?? key] = value;
  }
  context.remoteAddress ??= request.remoteAddress;
  return { ...context, properties };
}

/** The frontend API's context from a POST body: `{ context: {...} }` or the context itself. */
function bodyContext(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const inner = (body as { context?: unknown }).context;
  return typeof inner === 'object' && inner !== null
    ? (inner as Record<string, unknown>)
    : (body as Record<string, unknown>);
}

/** The frontend answer with its ETag: an unchanged answer is a 304 without evaluating anything. */
async function frontendAnswer(
  { flagstaff, caller, request }: RouteContext,
  context: Record<string, unknown>,
) {
  const { etag, toggles } = await flagstaff.client.frontendWithEtag(
    caller,
    context,
    request.headers['if-none-match'],
  );
  const headers: Record<string, string> = etag === null ? NO_CACHE : { etag, ...NO_CACHE };
  if (toggles === null) return reply(304, undefined, headers);
  return reply(200, { toggles }, headers);
}

/** The filters an SDK adds to the client features, delta and streaming URLs. */
export const featuresQuery = (query: Record<string, unknown>) => ({
  project: strings(query.project),
  namePrefix: typeof query.namePrefix === 'string' ? query.namePrefix : undefined,
});

/** SDK answers must be revalidated every time: the ETag makes that cheap. */
export const NO_CACHE: Readonly<Record<string, string>> = { 'cache-control': 'no-cache' };

/** The SDK-facing APIs: client (server-side SDKs) and frontend. */
export const clientRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/client/features',
    api: 'client',
    tag: 'Client',
    summary: 'Get the feature configuration for SDKs',
    status: 200,
    query: z.object({ project: z.array(z.string()).optional(), namePrefix: z.string().optional() }),
    response: clientFeaturesResponseSchema,
    handler: async ({ flagstaff, caller, query, request }) => {
      // One call: the 304 is decided on the ETag alone (no store read while the revision is known,
      // no serializing), else the bytes prepared once per revision.
      const answer = await flagstaff.client.featuresAnswer(
        caller,
        featuresQuery(query),
        request.headers['if-none-match'],
      );
      if (answer.kind === 'not-modified')
        return reply(304, undefined, { etag: answer.etag, vary: 'Accept-Encoding', ...NO_CACHE });
      return preparedReply(answer.payload, request.headers['accept-encoding'], NO_CACHE);
    },
  },
  {
    method: 'get',
    path: '/api/client/features/:featureName',
    api: 'client',
    tag: 'Client',
    summary: 'Get one feature as SDKs see it',
    status: 200,
    response: clientFeatureSchema,
    handler: async ({ flagstaff, caller, params, request }) => {
      const name = params.featureName ?? '';
      const found = await flagstaff.client.feature(caller, name);
      if (!found) throw notFound('feature', name);
      const headers = { etag: found.etag, ...NO_CACHE };
      if (etagMatches(request.headers['if-none-match'], found.etag)) return reply(304, undefined, headers);
      return rawJson(found.json, 200, headers);
    },
  },
  {
    method: 'get',
    path: '/api/frontend',
    api: 'frontend',
    tag: 'Frontend',
    summary: 'Evaluate features for a frontend context (query parameters)',
    status: 200,
    response: frontendResponseSchema,
    handler: (ctx) => frontendAnswer(ctx, queryContext(ctx)),
  },
  {
    method: 'post',
    path: '/api/frontend',
    api: 'frontend',
    tag: 'Frontend',
    summary: 'Evaluate features for a frontend context (body)',
    status: 200,
    body: z.object({ context: z.record(z.string(), z.unknown()) }),
    bodyRequired: false,
    response: frontendResponseSchema,
    handler: (ctx) =>
      frontendAnswer(ctx, { remoteAddress: ctx.request.remoteAddress, ...bodyContext(ctx.body) }),
  },
]);
