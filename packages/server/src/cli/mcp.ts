import { createHttpBackend, serveMcpOverStdio } from '@flagstaff/mcp';
import { CliError, type CliIo, clientFrom, parseCommand } from './io.js';

/**
 * `flagstaff mcp`: an MCP server on stdin/stdout whose tools call a running server's admin API with
 * `--url`/`--token`, so they can do what that token may. Resolves when the client closes stdin.
 */
export async function runMcp(args: string[], io: CliIo, help: () => number): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'mcp',
  );
  if (values.help) return help();
  if (positionals.length > 0)
    throw new CliError(
      `flagstaff mcp takes no arguments, not "${positionals[0]}" (see flagstaff mcp --help)`,
      2,
    );
  const client = clientFrom(values, io);
  io.stderr(`flagstaff mcp: serving ${client.url} on stdio\n`);
  await serveMcpOverStdio(createHttpBackend(client), {
    log: {
      error: (message, fields) => io.stderr(`flagstaff mcp: ${message} ${JSON.stringify(fields ?? {})}\n`),
    },
  });
  return 0;
}
