import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, type Flagstaff, type Logger, type Store } from '@flagstaff/core';
import { flagstaffRouter } from '@flagstaff/http-express';
import express, { type RequestHandler } from 'express';
import { describeDatabase, type ServerConfig } from './config.js';
import { openStore } from './store.js';

export interface RunningServer {
  flagstaff: Flagstaff;
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the store. */
  close(): Promise<void>;
}

const requestLog =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info('request', {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      });
    });
    next();
  };

/** First start: makes sure an admin token exists, printing a generated secret exactly once. */
async function bootstrapAdminToken(
  flagstaff: Flagstaff,
  config: ServerConfig,
  logger: Logger,
): Promise<void> {
  const secret = await flagstaff.apiTokens.ensureAdminToken(config.adminToken);
  if (secret === null) return;
  if (secret === config.adminToken)
    logger.info('created the first admin API token from FLAGSTAFF_ADMIN_TOKEN');
  else
    logger.info('created the first admin API token; it is shown only this once, keep it safe', {
      adminToken: secret,
    });
}

/** Opens the store, builds the app and listens; resolves once requests are being served. */
export async function startServer(
  config: ServerConfig,
  logger: Logger,
  options: { store?: Store } = {},
): Promise<RunningServer> {
  const store = options.store ?? (await openStore(config.database, logger));
  const flagstaff = await createFlagstaff({ store, logger, baseUrl: config.baseUrl });
  if (config.auth === 'token') await bootstrapAdminToken(flagstaff, config, logger);
  else
    logger.warn('authentication is off (FLAGSTAFF_AUTH=none): anyone who can reach the server is an admin');

  let stopping = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestLog(logger));
  app.get('/health', (_req, res) => {
    res.status(stopping ? 503 : 200).json({ status: stopping ? 'stopping' : 'ok' });
  });
  app.use(
    flagstaffRouter(flagstaff, {
      auth: { type: config.auth },
      logger,
      ...(config.bodyLimit ? { bodyLimit: config.bodyLimit } : {}),
      streaming: config.streaming,
    }),
  );

  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info('flagstaff is listening', {
    port,
    database: describeDatabase(config.database),
    auth: config.auth,
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopping = true;
      logger.info('shutting down: finishing requests in flight');
      // SDK streams never finish on their own: end them so their connections go idle and close.
      flagstaff.client.shutdown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle as their last response goes out: close them as they do.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await flagstaff.close();
      logger.info('stopped: store closed');
    })();
    return closing;
  };
  return { flagstaff, server, port, url, close };
}
