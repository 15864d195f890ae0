import { isFlagstaffError, ofrepBulkResponseSchema, ofrepEvaluationSchema } from '@flagstaff/core';
import { z } from 'zod';
import { authenticationRequired, type ErrorBody, HttpError } from '../errors.js';
import type { HttpRequest } from '../request.js';
import { defineRoutes, reply } from '../route.js';
import { NO_CACHE } from './client.js';
import { eventStreamReply, revisionOf } from './client-stream.js';

/** Providers may send this header (`payload`) to get variant payloads as typed values (see ofrep.md). */
export const OFREP_VALUES_HEADER = 'x-flagstaff-ofrep-values';

/** Seconds of inactivity after which a provider closes the stream (the protocol's default). */
const INACTIVITY_DELAY_SEC = 120;

const typedValues = (request: HttpRequest) =>
  request.headers[OFREP_VALUES_HEADER]?.trim().toLowerCase() === 'payload';

/**
 * OFREP's failure bodies instead of the contract's: `{ key?, errorCode, errorDetails }` for a bad
 * request (PARSE_ERROR when the body is not JSON, else the code the service named) and for an
 * unknown flag. Other failures (401, 403, 413, 415, 429) keep `{ id, name, message }`: the
 * protocol defines no body for them.
 */
function ofrepErrorBody(failure: {
  status: number;
  body: ErrorBody;
  error: unknown;
  params: Record<string, string>;
}): unknown {
  const { status, body, error, params } = failure;
  const key = params.key;
  if (status === 404 && key !== undefined)
    return { key, errorCode: 'FLAG_NOT_FOUND', errorDetails: body.message };
  if (status !== 400) return undefined;
  const named = isFlagstaffError(error) ? error.details?.ofrepErrorCode : undefined;
  const errorCode =
    typeof named === 'string' ? named : error instanceof HttpError ? 'PARSE_ERROR' : 'INVALID_CONTEXT';
  return { ...(key === undefined ? {} : { key }), errorCode, errorDetails: body.message };
}

const evaluationRequest = z.object({
  context: z.object({ targetingKey: z.string().optional() }).catchall(z.unknown()),
});

const common = {
  api: 'sdk',
  apiKeyHeader: true,
  tag: 'OFREP',
  body: evaluationRequest,
  bodyRequired: false,
  errorBody: ofrepErrorBody,
} as const;

/** OpenFeature Remote Evaluation Protocol (OFREP) v1 over the SDK evaluator (docs/ofrep.md). */
export const ofrepRoutes = defineRoutes([
  {
    ...common,
    method: 'post',
    path: '/ofrep/v1/evaluate/flags/:key',
    summary: 'Evaluate one flag for a context (OFREP)',
    status: 200,
    response: ofrepEvaluationSchema,
    errors: [429],
    handler: async ({ flagstaff, caller, params, body, request }) => {
      const result = await flagstaff.client.ofrep.evaluate(
        caller,
        params.key ?? '',
        body,
        typedValues(request),
      );
      return reply(200, result, NO_CACHE);
    },
  },
  {
    ...common,
    method: 'post',
    path: '/ofrep/v1/evaluate/flags',
    summary: 'Evaluate every flag for a context (OFREP)',
    status: 200,
    response: ofrepBulkResponseSchema,
    errors: [429],
    handler: async ({ flagstaff, caller, body, request }) => {
      const { ofrep } = flagstaff.client;
      const answer = await ofrep.bulk(caller, body, request.headers['if-none-match'], typedValues(request));
      const headers = answer.etag === null ? NO_CACHE : { etag: answer.etag, ...NO_CACHE };
      if (answer.flags === null) return reply(304, undefined, headers);
      const ticket = encodeURIComponent(await ofrep.streamTicket(caller));
      // An endpoint, not a URL: the provider puts it on the origin it was configured with, so a
      // proxy in front keeps working; the ticket stands for the token (EventSource sends no headers).
      const requestUri = `${request.basePath}/ofrep/v1/event-stream?ticket=${ticket}`;
      return reply(
        200,
        {
          flags: answer.flags,
          eventStreams: [{ type: 'sse', endpoint: { requestUri }, inactivityDelaySec: INACTIVITY_DELAY_SEC }],
          metadata: { revision: answer.revision },
        },
        headers,
      );
    },
  },
  {
    method: 'get',
    path: '/ofrep/v1/event-stream',
    // The ticket is the credential: browsers' EventSource cannot send an Authorization header.
    api: 'public',
    tag: 'OFREP',
    summary: 'Stream refetchEvaluation notices for a bulk evaluation (OFREP server-sent events)',
    status: 200,
    query: z.object({ ticket: z.string() }),
    mediaType: 'text/event-stream',
    response: z
      .string()
      .describe('Server-sent events: a `refetchEvaluation` notice after each configuration change.'),
    errors: [401, 429],
    handler: async ({ flagstaff, query, request, streams }) => {
      const ticket = typeof query.ticket === 'string' ? query.ticket : '';
      const caller = await flagstaff.client.ofrep.callerOfTicket(ticket);
      if (!caller) throw authenticationRequired(ticket !== '');
      const last = revisionOf(request.headers['last-event-id']);
      return eventStreamReply(await streams.open(caller, {}, last, 'ofrep'));
    },
  },
]);
