import { isFlagstaffError } from '@flagstaff/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FlagBackend } from './backend.js';
import { type FlagTool, ToolError } from './tools/define.js';
import { FLAG_TOOLS } from './tools/index.js';

export const MCP_SERVER_VERSION = '0.1.0';

/** Where errors no tool expected are reported (their text never reaches the assistant). */
export interface McpErrorLog {
  error(message: string, fields?: Record<string, unknown>): void;
}

const INSTRUCTIONS =
  'Flagstaff feature flags (Unleash-compatible). Tools act as the user or token that connected and ' +
  'obey its permissions. Flag names are unique across projects, so "project" may usually be left out. ' +
  'Changes take effect at once: there are no change requests.';

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

async function call(
  tool: FlagTool,
  backend: FlagBackend,
  args: unknown,
  log: McpErrorLog,
): Promise<CallToolResult> {
  try {
    const { summary, data } = await tool.run(backend, args);
    return {
      content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(data, null, 2)}` }],
      structuredContent: data,
    };
  } catch (error) {
    // Refusals and bad input carry messages meant for the caller (they name the permission or argument).
    if (isFlagstaffError(error) || error instanceof ToolError) return errorResult(error.message);
    log.error('an MCP tool failed', { tool: tool.name, error: String(error) });
    return errorResult(`${tool.name} failed unexpectedly; the server log has the details.`);
  }
}

/** An MCP server with Flagstaff's tools and the flag list resource, over one backend. */
export function createFlagstaffMcpServer(
  backend: FlagBackend,
  options: { log?: McpErrorLog } = {},
): McpServer {
  const log = options.log ?? { error: (message, fields) => console.error(message, fields) };
  const server = new McpServer(
    { name: 'flagstaff', version: MCP_SERVER_VERSION },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of FLAG_TOOLS)
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.hints },
      (args: unknown) => call(tool, backend, args, log),
    );
  server.registerResource(
    'flags',
    'flagstaff://flags',
    {
      title: 'Feature flags',
      description: 'Every live flag you may see: name, project, type, stale, and on/off per environment',
      mimeType: 'application/json',
    },
    async (uri) => {
      const features = await backend.listFeatures();
      const flags = features.map((f) => ({
        name: f.name,
        project: f.project,
        type: f.type,
        stale: f.stale,
        environments: Object.fromEntries(f.environments.map((e) => [e.name, e.enabled])),
      }));
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ flags }, null, 2) }],
      };
    },
  );
  return server;
}
