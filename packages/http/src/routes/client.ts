import type { Principal } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes, type RouteContext, reply } from '../route.js';

/** What an SDK principal may read: its token's scope, or everything when authentication is off. */
const scopeOf = (principal: Principal) =>
  principal.kind === 'api-token'
    ? { projects: principal.projects, environment: principal.environment }
    : { projects: ['*'], environment: '*' };

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

const frontendResponse = z.object({
  toggles: z.array(
    z.object({
      name: z.string(),
      enabled: z.boolean(),
      variant: z.object({ name: z.string(), enabled: z.boolean() }),
      impressionData: z.boolean(),
    }),
  ),
});

/** The SDK-facing APIs: client (server-side SDKs) and frontend. */
export const clientRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/client/features',
    api: 'client',
    permission: 'NONE',
    tag: 'Client',
    summary: 'Get the feature configuration for SDKs',
    status: 200,
    query: z.object({ project: z.array(z.string()).optional(), namePrefix: z.string().optional() }),
    handler: async ({ flagstaff, principal, query, request }) => {
      const namePrefix = typeof query.namePrefix === 'string' ? query.namePrefix : undefined;
      const { body, etag } = await flagstaff.client.features(scopeOf(principal), {
        project: strings(query.project),
        namePrefix,
      });
      const headers = { etag, 'cache-control': 'no-cache' };
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch?.split(',').some((t) => t.trim() === etag)) return reply(304, undefined, headers);
      return reply(200, body, headers);
    },
  },
  {
    method: 'get',
    path: '/api/frontend',
    api: 'frontend',
    permission: 'NONE',
    tag: 'Frontend',
    summary: 'Evaluate features for a frontend context (query parameters)',
    status: 200,
    response: frontendResponse,
    handler: (ctx) => ctx.flagstaff.client.frontend(scopeOf(ctx.principal), queryContext(ctx)),
  },
  {
    method: 'post',
    path: '/api/frontend',
    api: 'frontend',
    permission: 'NONE',
    tag: 'Frontend',
    summary: 'Evaluate features for a frontend context (body)',
    status: 200,
    body: z.object({ context: z.record(z.string(), z.unknown()) }),
    bodyRequired: false,
    response: frontendResponse,
    handler: ({ flagstaff, principal, body, request }) =>
      flagstaff.client.frontend(scopeOf(principal), {
        remoteAddress: request.remoteAddress,
        ...bodyContext(body),
      }),
  },
]);
