import type { Flagstaff, Logger, Principal } from '@flagstaff/core';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { notFoundRoute, toErrorResponse } from './errors.js';
import { type Authenticate, type AuthMode, createAuthenticator } from './middleware/auth.js';
import { DEFAULT_BODY_LIMIT, jsonBody } from './middleware/body.js';
import { buildOpenApiDocument } from './openapi.js';
import { isReply, type Route, type RouteContext } from './route.js';
import { RouteMatcher } from './route-matcher.js';
import { allRoutes } from './routes/index.js';

export interface FlagstaffRouterOptions {
  /** `{ type: 'token' }` (default): API tokens or `authenticate`; `{ type: 'none' }`: no authentication. */
  auth?: AuthMode;
  /** Resolves users the host app already knows; null falls back to API tokens. */
  authenticate?: Authenticate;
  /** Largest accepted request body (default 100 kB); bytes or a string such as `'1mb'`. */
  bodyLimit?: string | number;
  /** Where unexpected errors are logged (default: JSON lines on stderr). */
  logger?: Logger;
  /**
   * What happens to requests that match no route: `'not-found'` (default) answers 404
   * NotFoundError; `'next'` hands them to the host app (useful when mounting at `/`).
   */
  unknownRoutes?: 'not-found' | 'next';
}

/** Public routes run without a caller; services get an actor named after the public API. */
const PUBLIC: Principal = { kind: 'anonymous-admin', name: 'public' };

const stderrLogger: Logger = {
  info: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'info', msg, ...fields })}\n`),
  warn: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...fields })}\n`),
  error: (msg, fields) => process.stderr.write(`${JSON.stringify({ level: 'error', msg, ...fields })}\n`),
};

/**
 * Writes a JSON body directly: `res.json` would also hash every body for an ETag, which costs
 * milliseconds on large answers (the playground) and which no route relies on (the client API sets
 * its own).
 */
function sendJson(res: Response, body: unknown): void {
  sendJsonText(res, JSON.stringify(body));
}

/** Writes JSON already serialized, as text or UTF-8 bytes. */
function sendJsonText(res: Response, json: string | Uint8Array): void {
  const payload = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', payload.length);
  res.end(payload);
}

function send(res: Response, route: Route, result: unknown): void {
  if (isReply(result)) {
    if (result.headers) res.set(result.headers);
    res.status(result.status);
    if (result.json !== undefined) sendJsonText(res, result.json);
    else if (result.body === undefined) res.end();
    else sendJson(res, result.body);
    return;
  }
  res.status(route.status);
  if (route.empty || result === undefined) res.end();
  else sendJson(res, result);
}

/**
 * The Flagstaff HTTP API (admin, client, frontend and public routes, and the OpenAPI document at
 * `/docs/openapi.json`) as an Express router, mountable under any path.
 */
export function flagstaffRouter(flagstaff: Flagstaff, options: FlagstaffRouterOptions = {}): Router {
  const logger = options.logger ?? stderrLogger;
  const authenticate = createAuthenticator(
    flagstaff,
    options.auth ?? { type: 'token' },
    options.authenticate,
  );
  const parseBody = jsonBody(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const router = express.Router();
  const routes = allRoutes();
  let document: unknown;

  router.get('/docs/openapi.json', (req, res) => {
    document ??= buildOpenApiDocument(routes);
    res.json({ ...(document as object), servers: [{ url: req.baseUrl || '/' }] });
  });

  const run = async (route: Route, req: Request, res: Response, principal: Principal) => {
    const ctx: RouteContext = {
      flagstaff,
      principal,
      actor: flagstaff.access.actorOf(principal),
      userId: principal.kind === 'user' ? principal.userId : null,
      params: req.params as Record<string, string>,
      query: req.query as Record<string, unknown>,
      body: req.body,
      req,
    };
    if (route.api !== 'public') {
      const permission = typeof route.permission === 'function' ? route.permission(ctx) : route.permission;
      await flagstaff.access.authorize(principal, route.api, permission, {
        project: route.scope?.project ? ctx.params[route.scope.project] : undefined,
        environment: route.scope?.environment ? ctx.params[route.scope.environment] : undefined,
        feature: route.scope?.feature ? ctx.params[route.scope.feature] : undefined,
      });
    }
    send(res, route, await route.handler(ctx));
  };

  // One walk of a segment tree finds the route, instead of Express testing ~140 routes in turn.
  const matcher = new RouteMatcher<Route>();
  for (const route of routes) matcher.add(route.method, route.path, route);
  router.use((req, res, next) => {
    const found = matcher.match(req.method, req.path);
    if (!found) {
      const allowed = req.method === 'OPTIONS' ? matcher.allowed(req.path) : [];
      if (allowed.length > 0) {
        res.setHeader('allow', allowed.join(', '));
        res.status(204).end();
      } else next();
      return;
    }
    const route = found.value;
    req.params = found.params;
    // Authentication runs before the body is read, so anonymous callers cannot make us parse 100 kB.
    const authenticated = route.api === 'public' ? Promise.resolve(PUBLIC) : authenticate(req);
    authenticated.then(
      (principal) =>
        parseBody(req, res, (error?: unknown) => {
          if (error) next(error);
          else run(route, req, res, principal).catch(next);
        }),
      next,
    );
  });

  if ((options.unknownRoutes ?? 'not-found') === 'not-found') {
    router.use((req, _res, next) =>
      next(notFoundRoute(req.method, req.originalUrl.split('?')[0] ?? req.path)),
    );
  }

  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, body } = toErrorResponse(error, logger);
    res.status(status).json(body);
  };
  router.use(onError);
  return router;
}
