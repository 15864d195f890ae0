import { type AnyOperation, type ApiFamily, FlagstaffError, type OperationOutput } from '@flagstaff/core';
import type { z } from 'zod';
import type { HttpRequest } from './request.js';
import type { HttpMethod, Route } from './route.js';

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
}

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
  /**
   * The output as this request receives it, of the same type (so the same schema describes it):
   * links core made relative become absolute against the address the caller used. Presentation
   * only; nothing is decided here.
   */
  answer?: (
    output: OperationOutput<Op>,
    http: { request: HttpRequest; secureCookies: boolean },
  ) => OperationOutput<Op>;
  api: ApiFamily | 'public';
  tag: string;
  /** Defaults to the operation's summary. */
  summary?: string;
  status: number;
  /** Answer with no body (the operation's output stays in process). */
  empty?: boolean;
  /** The request body's schema in the OpenAPI document (what the body adds to the path's parameters). */
  body?: z.ZodType;
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
    query: route.query,
    errors: route.errors,
    deprecated: route.deprecated,
    response: route.empty ? undefined : route.operation.output,
    handler: async ({ flagstaff, caller, params, query, body, request, secureCookies }) => {
      let output: OperationOutput<Op>;
      try {
        output = await flagstaff.run.unknown(route.operation, caller, toInput({ params, query, body }));
      } catch (error) {
        throw route.body && body === undefined ? namingMissingBody(error) : error;
      }
      return route.answer ? route.answer(output, { request, secureCookies }) : output;
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
