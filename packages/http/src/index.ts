export { createFetchHandler, type FetchHandlerOptions } from './adapters/fetch.js';
export { createNodeHandler, type NodeHandlerOptions, nodeRequestHasBody } from './adapters/node.js';
export { writeNodeResponse } from './adapters/write-node.js';
export type { Authenticate, AuthMode } from './auth.js';
export { type AuthFailureOptions, DEFAULT_AUTH_FAILURES } from './auth-failures.js';
export { DEFAULT_BODY_LIMIT, DEFAULT_IMPORT_BODY_LIMIT, parseByteLimit } from './body.js';
export type { StreamingOptions } from './client-streams.js';
export { CODE_STATUS, type ErrorBody, HttpError, LOGIN_PATH, toErrorResponse } from './errors.js';
export {
  createHttpHandler,
  type FlagstaffHttpHandler,
  type FlagstaffHttpOptions,
  jsonResponse,
} from './handler.js';
export { MCP_PATH, type McpEndpoint } from './mcp-endpoint.js';
export { buildOpenApiDocument } from './openapi.js';
export { REDACTED, redactPath } from './redact-path.js';
export {
  flattenHeaders,
  type HttpBody,
  type HttpRequest,
  type HttpResponse,
  parseQuery,
} from './request.js';
export { defineRoutes, type HttpMethod, type Reply, type Route, type RouteContext, reply } from './route.js';
export { allRoutes } from './routes/index.js';
