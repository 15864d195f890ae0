import type { ApiFamily, Caller, Flagstaff } from '@flagstaff/core';
import type { z } from 'zod';
import type { ClientStreams } from './client-streams.js';
import type { ErrorBody } from './errors.js';
import type { HttpBody, HttpRequest } from './request.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler sees: the core services, who is calling, and the raw request parts. */
export interface RouteContext {
  flagstaff: Flagstaff;
  /** Who is calling (principal) and who is written into the events of a command (actor). */
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The parsed JSON body, passed to core unparsed: services validate it. */
  body: unknown;
  /** For the rare header a route reads (If-None-Match, Authorization on signal endpoints) and the client's address. */
  request: HttpRequest;
  /** The handler's server-sent-event streams (`GET /api/client/streaming`). */
  streams: ClientStreams;
  /** Whether session cookies are always marked Secure (`secureCookies` of the HTTP options). */
  secureCookies: boolean;
}

/** A response other than "the status of the route with this JSON body". */
export interface Reply {
  readonly kind: 'reply';
  status: number;
  body?: unknown;
  /** A body already serialized as JSON (text, UTF-8 bytes, or bytes in pieces), sent as is instead of `body`. */
  json?: string | Uint8Array | readonly Uint8Array[];
  /** A body of another type, sent as is (a stream of chunks); `headers` carry its content-type. */
  raw?: HttpBody;
  headers?: Record<string, string>;
}

/** Builds a reply with its own status, headers or an empty body. */
export const reply = (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({
  kind: 'reply',
  status,
  body,
  headers,
});

/**
 * Answers with a body the handler already serialized as JSON (it must be valid JSON): for large
 * answers a service can build faster as text than as objects (the playground), or bytes prepared
 * once and sent many times, possibly compressed (then `headers` name the `content-encoding`).
 */
export const rawJson = (
  json: string | Uint8Array | readonly Uint8Array[],
  status = 200,
  headers?: Record<string, string>,
): Reply => ({
  kind: 'reply',
  status,
  json,
  headers,
});

/**
 * Answers with JSON written out piece by piece as the handler's chunks come (each made when the
 * client is ready for it): a large answer is never held whole in memory. Refuse before returning it.
 */
export const streamJson = (
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  status = 200,
): Reply => ({
  kind: 'reply',
  status,
  raw: (async function* () {
    yield* chunks;
  })(),
  headers: { 'content-type': 'application/json; charset=utf-8' },
});

/**
 * `JSON.stringify(value)` of an object whose last property is a long list, streamed: `before` (the
 * text up to the list, e.g. `{"version":2,"features":`), the items as their pages come, then `after`.
 */
export function streamJsonList(
  before: string,
  pages: AsyncIterable<readonly unknown[]>,
  after: string,
): Reply {
  const encoder = new TextEncoder();
  return streamJson(
    (async function* () {
      let first = true;
      yield encoder.encode(`${before}[`);
      for await (const page of pages) {
        if (page.length === 0) continue;
        const items = page.map((item) => JSON.stringify(item)).join(',');
        yield encoder.encode(first ? items : `,${items}`);
        first = false;
      }
      yield encoder.encode(`]${after}`);
    })(),
  );
}

export const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' &&
  value !== null &&
  (value as { kind?: unknown }).kind === 'reply' &&
  'status' in value;

/**
 * One operation of the HTTP API, mapped onto a service call. `api` decides how the caller is
 * authenticated (`public` routes ask nobody); what the caller may do is the policy's to decide,
 * inside the service the handler calls.
 */
export interface Route {
  method: HttpMethod;
  /** Path relative to where the API is mounted, with `:param` segments. */
  path: string;
  /** `sdk`: client and frontend tokens both (OFREP); the policy still judges each call. */
  api: ApiFamily | 'public' | 'sdk';
  /** Also read the API token from `X-API-Key` (OFREP's API-key scheme). */
  apiKeyHeader?: boolean;
  /**
   * The body of an error answer when the route's protocol defines its own (OFREP); undefined keeps
   * the contract's `{ id, name, message }`.
   */
  errorBody?: (failure: {
    status: number;
    body: ErrorBody;
    error: unknown;
    params: Record<string, string>;
  }) => unknown;
  summary: string;
  /** The OpenAPI operationId; routes of operations use the operation's id. */
  operationId?: string;
  tag: string;
  deprecated?: boolean;
  /** The success status; `empty` routes answer it with no body. */
  status: number;
  empty?: boolean;
  /** Request body schema (documentation only: the service parses the body). */
  body?: z.ZodType;
  /** Whether a body is required (default: true when `body` is given). */
  bodyRequired?: boolean;
  /**
   * Which body limit applies: the router's `bodyLimit` (default), or `'import'`, the router's
   * `importBodyLimit` (25 MB by default), for routes that take a whole export document (client and
   * frontend tokens keep `bodyLimit`: they cannot import).
   */
  bodyLimit?: 'import';
  query?: z.ZodObject;
  /** The success body's schema: OpenAPI describes it, and the test harness checks every answer against it. */
  response?: z.ZodType;
  /**
   * The success body's media type when it is not JSON: a server-sent event stream, CSV text, an
   * SQLite database file (the backup download).
   */
  mediaType?: 'text/event-stream' | 'text/csv' | 'application/vnd.sqlite3';
  /** Documented error statuses besides the ones derived from the route's shape. */
  errors?: number[];
  handler: (ctx: RouteContext) => Promise<unknown>;
}

/** Identity helper that keeps route literals type-checked. */
export const defineRoutes = (routes: Route[]): Route[] => routes;
