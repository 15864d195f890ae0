import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ApiClient, createApiClient } from './api-client.js';

/** A wrong command line or input file: reported as one line, exit code 2 for usage, 1 otherwise. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Where a command writes and what it reads from its environment (tests pass their own). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** The whole of standard input as text (`flagstaff import -`). */
  readStdin?(): Promise<string>;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** The options every command talking to a server takes. */
export const serverOptions = {
  url: { type: 'string' },
  token: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** parseArgs with a usage error (exit 2) instead of a stack trace. */
export function parseCommand<const O extends Options>(args: string[], options: O, command: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(
      `${error instanceof Error ? error.message : String(error)} (see flagstaff ${command} --help)`,
      2,
    );
  }
}

/** The client for `--url`/`--token`, else FLAGSTAFF_URL/FLAGSTAFF_TOKEN. */
export function clientFrom(values: { url?: string; token?: string }, io: CliIo): ApiClient {
  const url = values.url ?? io.env.FLAGSTAFF_URL;
  if (!url) throw new CliError('no server: pass --url or set FLAGSTAFF_URL (e.g. http://localhost:4242)', 2);
  try {
    new URL(url);
  } catch {
    throw new CliError(`--url "${url}" is not a URL (e.g. http://localhost:4242)`, 2);
  }
  return createApiClient({ url, token: values.token ?? io.env.FLAGSTAFF_TOKEN });
}

/** Writes a command's result to `--out` when given, stdout otherwise. */
export function emit(text: string, out: string | undefined, io: CliIo): void {
  if (out === undefined) io.stdout(text);
  else {
    try {
      writeFileSync(out, text);
    } catch (error) {
      throw new CliError(`cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
    }
    io.stderr(`wrote ${out}\n`);
  }
}
