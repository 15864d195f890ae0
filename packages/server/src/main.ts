import { ConfigError, loadConfig } from './config.js';
import { jsonLogger, logLevelOf } from './logger.js';
import { startServer } from './server.js';
import { handleSignals } from './shutdown.js';

async function main(): Promise<void> {
  const logger = jsonLogger(undefined, logLevelOf(process.env.LOG_LEVEL));
  try {
    const config = loadConfig(process.env);
    const running = await startServer(config, logger);
    handleSignals(running.close, process, logger);
  } catch (error) {
    logger.error(error instanceof ConfigError ? error.message : 'could not start', {
      error: error instanceof Error ? error.message : String(error),
    });
    process.exit(1);
  }
}

void main();
