import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { FlagBackend } from './backend.js';
import { createFlagstaffMcpServer, type McpErrorLog } from './create-server.js';

/**
 * Serves the tools on this process's stdin/stdout until the client closes stdin (or the session ends).
 * Nothing else may write to stdout while it runs: log to stderr.
 */
export async function serveMcpOverStdio(
  backend: FlagBackend,
  options: { log?: McpErrorLog } = {},
): Promise<void> {
  const server = createFlagstaffMcpServer(backend, options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // The SDK's stdio transport does not notice the end of its input; the client closing stdin ends the session.
  const end = () => void server.close();
  process.stdin.once('end', end);
  await server.connect(new StdioServerTransport());
  await closed;
  process.stdin.off('end', end);
}
