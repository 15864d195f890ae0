import { callerOf, type Flagstaff, isFlagstaffError, type Logger, type Principal } from '@flagstaff/core';
import { type Authenticate, type AuthMode, createAuthenticator } from './auth.js';
import { type AuthFailureOptions, createAuthFailureLimiter } from './auth-failures.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_IMPORT_BODY_LIMIT, parseByteLimit, readJsonBody } from './body.js';
import { createClientStreams, type StreamingOptions } from './client-streams.js';
import { notFoundRoute, toErrorResponse } from './errors.js';
import { createFrontendCors } from './frontend-cors.js';
import { MCP_PATH, type McpEndpoint } from './mcp-endpoint.js';
import { buildOpenApiDocument } from './openapi.js';
import type { HttpRequest, HttpResponse } from './request.js';
import { isReply, type Route, type RouteContext } from './route.js';
import { RouteMatcher } from './route-matcher.js';
import { allRoutes } from './routes/index.js';
import { createUiServer, type UiOption } from './ui/serve-ui.js';

export interface FlagstaffHttpOptions<Native = unknown> {
  /** `{ type: 'token' }` (default): API tokens or `authenticate`; `{ type: 'none' }`: no authentication. */
  auth?: AuthMode;
  /** Resolves users the host app already knows; null falls back to API tokens. */
  authenticate?: Authenticate<Native>;
  /** Largest accepted request body (default 100 kB); bytes or a string such as `'1mb'`. */
  bodyLimit?: string | number;
  /**
   * Largest accepted body of the import routes (`/api/admin/features-batch/validate` and `/import`),
   * which take a whole export document (default 25 MB); bytes or a string such as `'50mb'`.
   */
  importBodyLimit?: string | number;
  /** Where unexpected errors are logged (default: JSON lines on stderr). */
  logger?: Logger;
  /**
   * What happens to requests that match no route: `'not-found'` (default) answers 404
   * NotFoundError; `'next'` hands them back to the adapter (the host app answers).
   */
  unknownRoutes?: 'not-found' | 'next';
  /**
   * Serves the admin UI at `ui/` under the mount path: `true` finds the built app in the
   * `@flagstaff/admin-ui` package, `{ assetsDir }` names a directory. Off by default.
   */
  ui?: UiOption;
  /** Limits of the SDK streaming endpoint: connections, keep-alive interval, per-stream queue. */
  streaming?: StreamingOptions;
  /**
   * Always mark the session cookie Secure (default false: only behind `X-Forwarded-Proto: https`).
   * Turn it on whenever users reach the service over HTTPS, above all when a proxy does not say so.
   */
  secureCookies?: boolean;
  /**
   * Unknown API tokens one client address may present per window before its token requests get
   * 429 (defaults: 60 per minute). Addresses come from the adapter (`remoteAddress`).
   */
  authFailures?: AuthFailureOptions;
  /**
   * Serves a Model Context Protocol endpoint at `mcp` under the mount path (`createMcpHttpHandler`
   * of `@flagstaff/mcp`), authenticated like the admin API. Off by default.
   */
  mcp?: McpEndpoint;
}

/** The framework-neutral API: one request in, one response out (null: not ours, with `unknownRoutes: 'next'`). */
export interface FlagstaffHttpHandler<Native = unknown> {
  handle(request: HttpRequest<Native>): Promise<HttpResponse | null>;
  /** Ends every open stream (server shutdown); `flagstaff.close()` does it too. */
  close(): void;
}

/** Public routes run without a caller; services get an actor named after the public API. */
const PUBLIC: Principal = { kind: 'anonymous', name: 'anonymous' };

const stderrLogger: Logger = {
  info: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'info', msg, ...fields })}\n`),
  warn: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...fields })}\n`),
  error: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'error', msg, ...fields })}\n`),
};

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON response; the body is serialized here unless it already is JSON text or bytes. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  const json = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  return { status, headers: { ...headers, 'content-type': JSON_TYPE }, body: json };
}

function toResponse(route: Route, result: unknown): HttpResponse {
  if (isReply(result)) {
    const headers = { ...result.headers };
    if (result.json !== undefined)
      return { status: result.status, headers: { ...headers, 'content-type': JSON_TYPE }, body: result.json };
    if (result.raw !== undefined) return { status: result.status, headers, body: result.raw };
    if (result.body === undefined) return { status: result.status, headers };
    return jsonResponse(result.status, result.body, headers);
  }
  if (route.empty || result === undefined) return { status: route.status, headers: {} };
  return jsonResponse(route.status, result);
}

/**
 * The Flagstaff HTTP API (admin, client, frontend and public routes, and the OpenAPI document at
 * `/docs/openapi.json`) as a plain request → response function every adapter wraps.
 */
export function createHttpHandler<Native = unknown>(
  flagstaff: Flagstaff,
  options: FlagstaffHttpOptions<Native> = {},
): FlagstaffHttpHandler<Native> {
  const logger = options.logger ?? stderrLogger;
  const authenticate = createAuthenticator(
    flagstaff,
    options.auth ?? { type: 'token' },
    options.authenticate,
    createAuthFailureLimiter(options.authFailures),
  );
  const bodyLimit = parseByteLimit(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const importBodyLimit = parseByteLimit(options.importBodyLimit ?? DEFAULT_IMPORT_BODY_LIMIT);
  // SDK tokens can never import: they keep the small limit, so they cannot make us read 25 MB.
  const limitOf = (route: Route, principal: Principal) =>
    route.bodyLimit === 'import' && !(principal.kind === 'api-token' && principal.tokenType !== 'admin')
      ? importBodyLimit
      : bodyLimit;
  const passUnknown = options.unknownRoutes === 'next';
  const routes = allRoutes();
  const serveUi = options.ui ? createUiServer(options.ui) : null;
  const streams = createClientStreams(flagstaff, options.streaming ?? {}, logger);
  const cors = createFrontendCors(flagstaff);
  let document: object | undefined;

  // One walk of a segment tree finds the route, instead of testing ~140 patterns in turn.
  const matcher = new RouteMatcher<Route>();
  for (const route of routes) matcher.add(route.method, route.path, route);

  const run = async (route: Route, request: HttpRequest<Native>, params: Record<string, string>) => {
    // Authentication runs before the body is read, so anonymous callers cannot make us parse 100 kB.
    const principal = route.api === 'public' ? PUBLIC : await authenticate(request, route.apiKeyHeader);
    const caller = callerOf(principal);
    const ctx: RouteContext = {
      flagstaff,
      caller,
      params,
      query: request.query,
      body: await readJsonBody(request, limitOf(route, principal)),
      request,
      streams,
      secureCookies: options.secureCookies === true,
    };
    return toResponse(route, await route.handler(ctx));
  };

  // The caller is judged per request: the endpoint runs its tools as this request's principal.
  const serveMcp = async (endpoint: McpEndpoint, request: HttpRequest<Native>) => {
    const caller = callerOf(await authenticate(request));
    const body = request.method === 'POST' ? await readJsonBody(request, bodyLimit) : undefined;
    return endpoint.handle({ method: request.method, headers: request.headers, body }, caller);
  };

  const fail = (error: unknown, route?: Route, params: Record<string, string> = {}): HttpResponse => {
    const { status, body: contract } = toErrorResponse(error, logger);
    const body = route?.errorBody?.({ status, body: contract, error, params }) ?? contract;
    const retryAfter = isFlagstaffError(error, 'RATE_LIMITED') ? error.details?.retryAfterSeconds : undefined;
    return jsonResponse(
      status,
      body,
      typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {},
    );
  };

  const respond = async (request: HttpRequest<Native>): Promise<HttpResponse | null> => {
    if ((request.method === 'GET' || request.method === 'HEAD') && request.path === '/docs/openapi.json') {
      document ??= buildOpenApiDocument(routes) as object;
      return jsonResponse(200, { ...document, servers: [{ url: request.basePath || '/' }] });
    }
    if (serveUi) {
      try {
        const page = await serveUi(request);
        if (page) return page;
      } catch (error) {
        logger.error('could not serve the admin UI', { error: String(error) });
        return jsonResponse(503, {
          id: 'ui-unavailable',
          name: 'ServiceUnavailableError',
          message: 'The admin UI could not be loaded: is @flagstaff/admin-ui installed and built?',
        });
      }
    }
    if (options.mcp && request.path === MCP_PATH) return serveMcp(options.mcp, request).catch(fail);
    const preflight = await cors.preflight(request);
    if (preflight) return preflight;
    const found = matcher.match(request.method, request.path);
    if (!found) {
      const allowed = request.method === 'OPTIONS' ? matcher.allowed(request.path) : [];
      if (allowed.length > 0) return { status: 204, headers: { allow: allowed.join(', ') } };
      if (passUnknown) return null;
      return fail(notFoundRoute(request.method, request.basePath + request.path));
    }
    let response: HttpResponse;
    try {
      response = await run(found.value, request, found.params);
    } catch (error) {
      response = fail(error, found.value, found.params);
    }
    // Browser providers call OFREP from other origins: evaluation and its event stream.
    const browserFacing = found.value.api === 'frontend' || found.value.path.startsWith('/ofrep/');
    return browserFacing ? cors.decorate(request, response) : response;
  };

  return {
    close: streams.close,
    async handle(request) {
      const response = await respond(request);
      // Browsers must not guess another type than the one sent (a JSON error echoing input as HTML).
      return (
        response && { ...response, headers: { ...response.headers, 'x-content-type-options': 'nosniff' } }
      );
    },
  };
}
