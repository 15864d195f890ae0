import type { Caller } from '@flagstaff/core';
import type { HttpResponse } from './request.js';

/** Where the MCP endpoint is mounted, relative to the API's mount path. */
export const MCP_PATH = '/mcp';

/**
 * A Model Context Protocol endpoint the router serves at `/mcp` (`createMcpHttpHandler` of
 * `@flagstaff/mcp` is one). The router authenticates the request as it does the admin API and
 * parses its JSON body within the body limit; the endpoint runs what it is asked as `caller`.
 * This package knows nothing of MCP itself, so it does not depend on the MCP SDK.
 */
export interface McpEndpoint {
  handle(
    request: { method: string; headers: Readonly<Record<string, string | undefined>>; body: unknown },
    caller: Caller,
  ): Promise<HttpResponse>;
}
