import type { Flagstaff, Logger } from '@flagstaff/core';
import { createFetchHandler } from '@flagstaff/http';
import { createApiClient } from './cli/api-client.js';
import { applyFile } from './cli/apply/apply.js';
import { ConfigError, loadConfig } from './config.js';
import { jsonLogger, logLevelOf } from './logger.js';
import { type RunningServer, startServer } from './server.js';

/**
 * Applies a file through the admin API before the server listens: the requests go straight to an
 * in-process handler (authentication off, never exposed), so no token is needed.
 */
export async function applyInProcess(flagstaff: Flagstaff, file: string, logger: Logger): Promise<void> {
  const handle = createFetchHandler(flagstaff, { auth: { type: 'none' } });
  const client = createApiClient({
    url: 'http://flagstaff.internal',
    fetch: (url, init) => handle(new Request(url, init)),
  });
  const plan = await applyFile(client, file, {
    log: (line) => logger.info('apply', { file, step: line }),
  });
  logger.info('applied the file at start-up', { file, changes: plan.length });
}

/**
 * `flagstaff serve`: the standalone server from environment variables; `applyFile` (or
 * FLAGSTAFF_APPLY_FILE) is applied before listening. Logs why and resolves to undefined when it cannot start.
 */
export async function serve(
  env: Record<string, string | undefined>,
  applyFilePath?: string,
  logger: Logger = jsonLogger(undefined, logLevelOf(env.LOG_LEVEL)),
): Promise<RunningServer | undefined> {
  try {
    const config = loadConfig(env);
    const file = applyFilePath ?? (env.FLAGSTAFF_APPLY_FILE?.trim() || undefined);
    return await startServer(config, logger, {
      ...(file ? { beforeListen: (flagstaff: Flagstaff) => applyInProcess(flagstaff, file, logger) } : {}),
    });
  } catch (error) {
    logger.error(error instanceof ConfigError ? error.message : 'could not start', {
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}
