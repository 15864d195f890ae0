import { type AnyOperation, type ApiFamily, FlagstaffError, type OperationOutput } from '@flagstaff/core';
import type { z } from 'zod';
import type { HttpRequest } from './request.js';
import type { HttpMethod, Reply, Route } from './route.js';

/**
 * The `:name` segments of a path, as a union of their names (Hono's `ParamKeys`):
 * `'/a/:projectId/b/:token'` → `'projectId' | 'token'`.
 */
export type ParamKeys<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamKeys<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a route, each present (the matcher only calls a route with all of them). */
export type PathParams<Path extends string> = { [K in ParamKeys<Path>]: string };

/** What a route's `input` mapping receives: the request parts, `params` typed from the path. */
export interface OperationRequest<Path extends string> {
  params: PathParams<Path>;
  query: Record<string, unknown>;
  /** The parsed JSON body, not validated yet: the operation's input schema does that, once. */
  body: unknown;
  /** Lower-case request headers, for the rare operation that reads one (a signal endpoint's token). */
  headers: Readonly<Record<string, string | undefined>>;
}

/** What `answer` sees: the request as the operation saw it, the HTTP request and whether cookies are secure. */
export type AnswerRequest<Path extends string> = OperationRequest<Path> & {
  request: HttpRequest;
  secureCookies: boolean;
};

/**
 * A route that serves an operation: the request becomes the operation's input, the answer is its
 * output (described in OpenAPI by the operation's output schema). No handler, so nothing to decide.
 */
export interface OperationRoute<Path extends string, Op extends AnyOperation> {
  method: HttpMethod;
  /** The whole path, written out (greppable from a log line), with `:param` segments. */
  path: Path;
  operation: Op;
  /**
   * The operation's input from the request. Default: the body's properties (or the body itself
   * when it is not an object) with the path parameters over them.
   */
  input?: (request: OperationRequest<Path>) => unknown;
  api: ApiFamily | 'public';
  tag: string;
  /** Defaults to the operation's summary. */
  summary?: string;
  status: number;
  /** Answer with no body (the operation's output stays in process). */
  empty?: boolean;
  /**
   * The output as this request receives it. Presentation only, nothing is decided here: the same
   * type with links core made relative absolute against the address the caller used (so the same
   * schema describes it), or a reply when the answer is not the output as JSON (a download's
   * headers, text; its media type is `mediaType`).
   */
  answer?: (output: OperationOutput<Op>, request: AnswerRequest<Path>) => Reply | OperationOutput<Op>;
  mediaType?: Route['mediaType'];
  /** The request body's schema in the OpenAPI document (what the body adds to the path's parameters). */
  body?: z.ZodType;
  /** Whether a body is required (default: true when `body` is given). */
  bodyRequired?: boolean;
  /** The router's `importBodyLimit` instead of its `bodyLimit` (bodies holding a whole export document). */
  bodyLimit?: 'import';
  /** The query string's schema in the OpenAPI document. */
  query?: z.ZodObject;
  errors?: number[];
  deprecated?: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body's properties, or none when it is not a JSON object (the operation's schema then says what is missing). */
export const bodyFields = (body: unknown): Record<string, unknown> => (isPlainObject(body) ? body : {});

/** The default mapping: body properties with the path parameters over them. */
const bodyAndParams = ({ params, body }: OperationRequest<string>): unknown =>
  body === undefined ? { ...params } : isPlainObject(body) ? { ...body, ...params } : body;

/** Turns an operation route into a route of the table; the router, matcher and OpenAPI see no difference. */
export function operationRoute<const Path extends string, Op extends AnyOperation>(
  route: OperationRoute<Path, Op>,
): Route {
  const toInput = (route.input ?? bodyAndParams) as (request: OperationRequest<string>) => unknown;
  return {
    method: route.method,
    path: route.path,
    api: route.api,
    tag: route.tag,
    summary: route.summary ?? route.operation.summary,
    operationId: route.operation.id,
    status: route.status,
    empty: route.empty,
    body: route.body,
    bodyRequired: route.bodyRequired,
    bodyLimit: route.bodyLimit,
    query: route.query,
    errors: route.errors,
    deprecated: route.deprecated,
    response: route.empty ? undefined : route.operation.output,
    mediaType: route.mediaType,
    handler: async ({ flagstaff, caller, params, query, body, request: httpRequest, secureCookies }) => {
      const request: OperationRequest<string> = { params, query, body, headers: httpRequest.headers };
      let output: OperationOutput<Op>;
      try {
        output = await flagstaff.run.unknown(route.operation, caller, toInput(request));
      } catch (error) {
        const bodyMissing = route.body && route.bodyRequired !== false && body === undefined;
        throw bodyMissing ? namingMissingBody(error) : error;
      }
      const answering = { ...request, request: httpRequest, secureCookies } as AnswerRequest<Path>;
      return route.answer ? route.answer(output, answering) : output;
    },
  };
}

/**
 * A route that takes a body, called without one: the operation's validation error (judged after the
 * policy, as always) says first that the body is missing, then which property it lacks.
 */
function namingMissingBody(error: unknown): unknown {
  if (!(error instanceof FlagstaffError) || error.code !== 'VALIDATION') return error;
  return new FlagstaffError('VALIDATION', `The request has no JSON body. ${error.message}`, error.details, {
    cause: error,
  });
}
