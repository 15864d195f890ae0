import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, type Flagstaff, type Store } from '@flagstaff/core';
import { InMemStorageProvider, Unleash, type UnleashConfig } from 'unleash-client';
import { createNodeHandler } from '../adapters/node.js';
import type { StreamingOptions } from '../client-streams.js';
import type { HttpResult, RequestOptions } from './harness.js';

/** A real node:http server for SDK tests, counting requests per path (to tell polling from streaming). */
export interface SdkTestServer {
  flagstaff: Flagstaff;
  base: string;
  port: number;
  adminToken: string;
  /** Requests seen per path, query string left out. */
  hits: Map<string, number>;
  /** Every Last-Event-ID header a stream request carried. */
  lastEventIds: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** Creates a client or frontend token (development) and returns its secret. */
  token(type: 'client' | 'frontend' | 'admin'): Promise<string>;
  /** Ends streams, stops serving and closes the store. */
  close(): Promise<void>;
}

/** Serves a store on 127.0.0.1 (on `port` when given, to come back where SDKs reconnect). */
export async function startSdkServer(
  store: Store,
  options: {
    port?: number;
    streaming?: StreamingOptions;
    adminToken?: string;
    /** How long a revision is trusted without asking the store (the SDK caches' default: 1 s). */
    revalidateMs?: number;
  } = {},
): Promise<SdkTestServer> {
  const flagstaff = await createFlagstaff({
    store,
    ...(options.revalidateMs === undefined ? {} : { clientCache: { revalidateMs: options.revalidateMs } }),
  });
  const adminToken =
    (await flagstaff.apiTokens.ensureAdminToken(options.adminToken)) ?? options.adminToken ?? '';
  const hits = new Map<string, number>();
  const lastEventIds: string[] = [];
  const handle = createNodeHandler(flagstaff, {
    streaming: options.streaming,
    logger: { info: () => {}, warn: () => {}, error: (msg, f) => console.error(msg, f) },
  });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string') lastEventIds.push(lastEventId);
    void handle(req, res);
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? adminToken : opts.token;
    if (token !== null) headers.authorization = token;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${base}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    flagstaff,
    base,
    port,
    adminToken,
    hits,
    lastEventIds,
    request,
    async token(type) {
      const res = await request('POST', '/api/admin/api-tokens', {
        body: { tokenName: `${type}-sdk`, type, ...(type === 'admin' ? {} : { environment: 'development' }) },
      });
      if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
      return res.body.secret as string;
    },
    async close() {
      // Ending the streams first lets their connections finish as a shutdown would.
      flagstaff.client.shutdown();
      const closed = once(server, 'close');
      server.close();
      // Connections whose stream just ended go idle a moment later: close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 20);
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(force);
      clearInterval(sweep);
      await flagstaff.close();
    },
  };
}

/**
 * The official Node SDK against a test server: in-memory storage, no metrics, errors and warnings
 * swallowed (tests assert on what it evaluates), polling once a minute unless told otherwise.
 */
export function createNodeSdk(options: {
  base: string;
  token: string;
  appName: string;
  mode?: UnleashConfig['experimentalMode'];
  refreshInterval?: number;
}): Unleash {
  const sdk = new Unleash({
    url: `${options.base}/api/`,
    appName: options.appName,
    customHeaders: { Authorization: options.token },
    refreshInterval: options.refreshInterval ?? 60_000,
    disableMetrics: true,
    storageProvider: new InMemStorageProvider(),
    ...(options.mode ? { experimentalMode: options.mode } : {}),
  });
  sdk.on('error', () => {});
  sdk.on('warn', () => {});
  return sdk;
}
