import { clientDeltaResponseSchema } from '@flagstaff/core';
import { z } from 'zod';
import { preparedReply } from '../encoding.js';
import type { HttpBody } from '../request.js';
import { defineRoutes, type Reply, reply } from '../route.js';
import { featuresQuery, NO_CACHE } from './client.js';

/**
 * The revision a delta client holds, from `If-None-Match: "<eventId>"` (or a stream's
 * `Last-Event-ID: <eventId>`); null when absent or not a revision (the client gets a hydration).
 */
/** The answer that opens a server-sent event stream (the Unleash and OFREP streams alike). */
export const eventStreamReply = (raw: HttpBody): Reply => ({
  kind: 'reply',
  status: 200,
  raw,
  headers: {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    // Reverse proxies (nginx) would otherwise hold events back to fill their buffers.
    'x-accel-buffering': 'no',
  },
});

export function revisionOf(header: string | undefined): number | null {
  if (!header) return null;
  const match = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  return match ? Number(match[1]) : null;
}

/**
 * The streaming API's frames: `unleash-connected` (a hydration) first, then `unleash-updated` (delta
 * events), each `data:` the JSON of a delta answer (`clientDeltaResponseSchema`).
 */
const unleashEventStream = z
  .string()
  .describe(
    'Server-sent events: `unleash-connected` (a hydration) then `unleash-updated` frames, each with the JSON of a delta answer as its data.',
  );

const filters = z.object({ project: z.array(z.string()).optional(), namePrefix: z.string().optional() });

/** The SDK delta and streaming APIs (unleash-client `experimentalMode` polling/delta and streaming). */
export const clientStreamRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/client/delta',
    api: 'client',
    tag: 'Client',
    summary: 'Get the feature changes since the revision in If-None-Match',
    status: 200,
    query: filters,
    response: clientDeltaResponseSchema,
    handler: async ({ flagstaff, caller, query, request }) => {
      const since = revisionOf(request.headers['if-none-match']);
      const answer = await flagstaff.client.delta(caller, featuresQuery(query), since);
      if (answer.kind === 'unchanged')
        return reply(304, undefined, { etag: `"${answer.revision}"`, vary: 'Accept-Encoding', ...NO_CACHE });
      return preparedReply(answer.payload, request.headers['accept-encoding'], NO_CACHE);
    },
  },
  {
    method: 'get',
    path: '/api/client/streaming',
    api: 'client',
    tag: 'Client',
    summary: 'Stream feature changes as server-sent events',
    status: 200,
    query: filters,
    mediaType: 'text/event-stream',
    response: unleashEventStream,
    errors: [429],
    handler: async ({ caller, query, request, streams }) => {
      const body = await streams.open(
        caller,
        featuresQuery(query),
        revisionOf(request.headers['last-event-id']),
      );
      return eventStreamReply(body);
    },
  },
]);
