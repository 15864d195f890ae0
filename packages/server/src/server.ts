import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, type Flagstaff, generatePassword, type Logger, type Store } from '@flagstaff/core';
import { createNodeHandler, redactPath } from '@flagstaff/http';
import { createMcpHttpHandler } from '@flagstaff/mcp';
import { describeDatabase, type ServerConfig } from './config.js';
import { startIdleCollection } from './idle-collection.js';
import { resolveSecretKey } from './secret-key.js';
import { openStore } from './store.js';

export interface RunningServer {
  flagstaff: Flagstaff;
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the store. */
  close(): Promise<void>;
}

/** One JSON line per request once its response has gone out; secrets in the path are redacted. */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    logger.info('request', {
      method: req.method,
      path: redactPath(req.url ?? '/'),
      status: res.statusCode,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    });
  });
}

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

/**
 * First start: creates the user `admin` with FLAGSTAFF_ADMIN_PASSWORD, or a generated password
 * printed exactly once, while no user has a password yet.
 */
async function bootstrapAdminUser(flagstaff: Flagstaff, config: ServerConfig, logger: Logger): Promise<void> {
  const password = config.adminPassword ?? generatePassword();
  if (!(await flagstaff.accounts.ensureAdminUser({ username: 'admin', password }))) return;
  if (config.adminPassword) logger.info('created the user "admin" with FLAGSTAFF_ADMIN_PASSWORD');
  else
    logger.info('created the user "admin"; its password is shown only this once, keep it safe', {
      adminUser: 'admin',
      adminPassword: password,
    });
}

/** Opens the store, builds the app and listens; resolves once requests are being served. */
export async function startServer(
  config: ServerConfig,
  logger: Logger,
  options: {
    store?: Store;
    /** Runs once the store is open and bootstrapped, before the port is opened (e.g. applying a file). */
    beforeListen?: (flagstaff: Flagstaff) => Promise<void>;
  } = {},
): Promise<RunningServer> {
  const store = options.store ?? (await openStore(config.database, logger));
  const flagstaff = await createFlagstaff({
    store,
    logger,
    baseUrl: config.baseUrl,
    // The key also signs reset links and seals addon secrets, so write-only token secrets still get it.
    secretKey: resolveSecretKey(config, logger),
    tokenSecretsWriteOnly: config.tokenSecretsWriteOnly,
    addonDelivery: config.addonDelivery,
    personalTokenMaxLifetimeDays: config.patMaxLifetimeDays,
    webhookAllowedHosts: config.webhookAllowedHosts,
    loginHashLimits: config.loginHashLimits,
    playgroundLimits: config.playground,
  });
  if (config.auth === 'token') {
    try {
      await bootstrapAdminToken(flagstaff, config, logger);
      await bootstrapAdminUser(flagstaff, config, logger);
    } catch (error) {
      // A refused FLAGSTAFF_ADMIN_PASSWORD stops the start; the store must not stay open.
      await flagstaff.close();
      throw error;
    }
  } else
    logger.warn('authentication is off (FLAGSTAFF_AUTH=none): anyone who can reach the server is an admin');
  if (options.beforeListen) {
    try {
      await options.beforeListen(flagstaff);
    } catch (error) {
      await flagstaff.close();
      throw error;
    }
  }

  let stopping = false;
  // node:http with the framework-neutral handler: no Express between the socket and the API.
  const api = createNodeHandler(flagstaff, {
    auth: { type: config.auth },
    logger,
    ui: true,
    ...(config.bodyLimit ? { bodyLimit: config.bodyLimit } : {}),
    ...(config.importBodyLimit ? { importBodyLimit: config.importBodyLimit } : {}),
    streaming: config.streaming,
    secureCookies: config.secureCookies,
    trustProxy: config.trustProxy,
    authFailures: config.authFailures,
    ...(config.mcp ? { mcp: createMcpHttpHandler(flagstaff, { log: logger }) } : {}),
  });
  const server: Server = createServer((req, res) => {
    logRequest(logger, req, res);
    res.setHeader('x-content-type-options', 'nosniff');
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') {
      res.writeHead(stopping ? 503 : 200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ status: stopping ? 'stopping' : 'ok' }));
    } else if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(302, { location: '/ui/' });
      res.end();
    } else {
      api(req, res).catch((error: unknown) => {
        logger.error('request failed outside the API handler', { error: String(error) });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    }
  });
  server.listen(config.port, config.host);
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

  const stopIdleCollection = config.idleCollection ? startIdleCollection(logger) : () => {};
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopping = true;
      stopIdleCollection();
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
