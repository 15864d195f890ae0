import type { Flagstaff } from '@flagstaff/core';
import {
  type Authenticate,
  createHttpHandler,
  type FlagstaffHttpOptions,
  flattenHeaders,
  type HttpRequest,
  nodeRequestHasBody,
  writeNodeResponse,
} from '@flagstaff/http';
import express, { type Request, type Router } from 'express';

export interface FlagstaffRouterOptions extends Omit<FlagstaffHttpOptions<Request>, 'authenticate'> {
  /** Resolves users the host app already knows, from the Express request; null falls back to API tokens. */
  authenticate?: (req: Request) => ReturnType<Authenticate>;
}

/** Whether a host's own body parser already read the body (`express.json()` mounted before us). */
const alreadyParsed = (req: Request): boolean => req.readableEnded && req.body !== undefined;

/**
 * The Flagstaff HTTP API as an Express router, mountable under any path. A thin adapter: the
 * framework-neutral handler of `@flagstaff/http` does the work.
 */
export function flagstaffRouter(flagstaff: Flagstaff, options: FlagstaffRouterOptions = {}): Router {
  const { authenticate, ...rest } = options;
  const handler = createHttpHandler<Request>(flagstaff, {
    ...rest,
    authenticate: authenticate && ((request) => authenticate(request.native)),
  });
  const router = express.Router();
  router.use((req, res, next) => {
    const parsed = alreadyParsed(req);
    const request: HttpRequest<Request> = {
      method: req.method,
      path: req.path,
      basePath: req.baseUrl,
      query: req.query as Record<string, unknown>,
      headers: flattenHeaders(req.headers),
      remoteAddress: req.ip,
      body: !parsed && nodeRequestHasBody(req) ? req : null,
      parsedBody: parsed ? req.body : undefined,
      native: req,
    };
    handler
      .handle(request)
      .then((response) => (response === null ? next() : writeNodeResponse(res, response, req)))
      .catch(next);
  });
  return router;
}
