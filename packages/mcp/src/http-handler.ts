import type { Caller, Flagstaff } from '@flagstaff/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createFlagstaffMcpServer, type McpErrorLog } from './create-server.js';
import { createFacadeBackend } from './facade-backend.js';

/** An MCP request as the router hands it over: authenticated already, the JSON body parsed within its limit. */
export interface McpHttpRequest {
  method: string;
  headers: Readonly<Record<string, string | undefined>>;
  body: unknown;
}

export interface McpHttpResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** What `@flagstaff/http` mounts at `/mcp` (its `mcp` option). */
export interface McpHttpHandler {
  handle(request: McpHttpRequest, caller: Caller): Promise<McpHttpResponse>;
}

// Set by the socket or the HTTP machinery, not by the MCP client: a Fetch Request must not carry them.
const SKIPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const notAllowed = (): McpHttpResponse => ({
  status: 405,
  headers: { allow: 'POST', 'content-type': 'application/json' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: 'This MCP endpoint is stateless: send JSON-RPC requests with POST.' },
    id: null,
  }),
});

/**
 * Streamable HTTP, stateless: each POST gets its own MCP server whose tools run in-process as the
 * request's caller, so the policy judges every call as it judges the admin API. No session is kept
 * (a caller's rights are those of each request), so GET streams and DELETE are refused with 405.
 */
export function createMcpHttpHandler(
  flagstaff: Flagstaff,
  options: { log?: McpErrorLog } = {},
): McpHttpHandler {
  return {
    async handle(request, caller) {
      if (request.method !== 'POST') return notAllowed();
      const server = createFlagstaffMcpServer(createFacadeBackend(flagstaff, caller), options);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers))
          if (value !== undefined && !SKIPPED_HEADERS.has(name)) headers.set(name, value);
        const response = await transport.handleRequest(
          new Request('http://flagstaff.local/mcp', { method: 'POST', headers }),
          { parsedBody: request.body },
        );
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          out[name] = value;
        });
        const body = await response.text();
        return { status: response.status, headers: out, ...(body ? { body } : {}) };
      } finally {
        await server.close();
      }
    },
  };
}
