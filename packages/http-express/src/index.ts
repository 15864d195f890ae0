export { CODE_STATUS, type ErrorBody, HttpError, LOGIN_PATH, toErrorResponse } from './errors.js';
export type { Authenticate, AuthMode } from './middleware/auth.js';
export { DEFAULT_BODY_LIMIT } from './middleware/body.js';
export { buildOpenApiDocument } from './openapi.js';
export { defineRoutes, type HttpMethod, type Reply, type Route, type RouteContext, reply } from './route.js';
export { type FlagstaffRouterOptions, flagstaffRouter } from './router.js';
export { allRoutes } from './routes/index.js';
