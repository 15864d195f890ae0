import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createFlagstaff,
  createMemoryStore,
  type Flagstaff,
  type FlagstaffOptions,
  type Logger,
  SYSTEM,
} from '@flagstaff/core';
import { createFetchHandler } from '../adapters/fetch.js';
import { createNodeHandler } from '../adapters/node.js';
import type { Authenticate } from '../auth.js';
import type { FlagstaffHttpOptions } from '../handler.js';
import { createResponseCheck } from './response-check.js';
import { serveFetch, TEST_REMOTE_ADDRESS } from './serve-fetch.js';

export interface HttpResult {
  status: number;
  headers: Headers;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when the body is empty. */
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
  body: any;
  text: string;
}

export interface RequestOptions {
  /** A value to send as JSON, unless `raw` is given. */
  body?: unknown;
  /** A body sent as is (with `contentType`). */
  raw?: string | Uint8Array;
  contentType?: string;
  /** The Authorization header; defaults to the admin token, `null` sends none. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestServer {
  flagstaff: Flagstaff;
  /** Base URL including the mount prefix. */
  base: string;
  /** The first admin token's secret (token mode only). */
  adminToken: string;
  logged: { level: string; msg: string; fields?: Record<string, unknown> }[];
  /** How many answers the strict response check has validated against their route's output schema. */
  readonly responsesChecked: number;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** Creates a user with a root role and returns its id (send it as `x-test-user`). */
  user(rootRole: 'Admin' | 'Editor' | 'Viewer', email?: string): Promise<number>;
  /** Creates an API token of a type through the API and returns its secret. */
  token(type: 'client' | 'frontend' | 'admin', extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Which adapter the HTTP suite runs through: `FLAGSTAFF_TEST_ADAPTER` (node, express or fetch; default node). */
export function testAdapter(): 'node' | 'express' | 'fetch' {
  const adapter = process.env.FLAGSTAFF_TEST_ADAPTER ?? 'node';
  if (adapter === 'node' || adapter === 'express' || adapter === 'fetch') return adapter;
  throw new Error(`FLAGSTAFF_TEST_ADAPTER must be node, express or fetch, not "${adapter}"`);
}

/** Works with every adapter's request: each has the headers. */
type HarnessAuthenticate = (req: {
  headers: Readonly<Record<string, string | string[] | undefined>>;
}) => ReturnType<Authenticate>;

type HarnessOptions = Omit<FlagstaffHttpOptions, 'authenticate'> & { authenticate?: HarnessAuthenticate };

/** Serves the API on an ephemeral loopback port through the chosen adapter, mounted at `prefix`. */
async function listen(
  adapter: 'node' | 'express' | 'fetch',
  prefix: string,
  flagstaff: Flagstaff,
  options: HarnessOptions,
): Promise<Server> {
  let server: Server;
  if (adapter === 'express') {
    // The Express adapter lives in its own package, which depends on this one: load it by name.
    const { mountExpress } = await import('./mount-express.js');
    server = mountExpress(flagstaff, prefix, options);
  } else if (adapter === 'fetch') {
    server = serveFetch(
      createFetchHandler(flagstaff, {
        remoteAddress: (request) => request.headers.get(TEST_REMOTE_ADDRESS) ?? undefined,
        ...options,
        basePath: prefix,
      }),
    );
  } else {
    server = createServer(createNodeHandler(flagstaff, { ...options, basePath: prefix }));
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/**
 * Starts the API on an ephemeral 127.0.0.1 port with the router mounted at `prefix` over a memory
 * store. Webhooks may reach 127.0.0.1, where test receivers listen, unless `flagstaff` says otherwise.
 */
export async function startTestServer(
  options: { prefix?: string; router?: HarnessOptions; flagstaff?: Omit<FlagstaffOptions, 'store'> } = {},
): Promise<TestServer> {
  const flagstaff = await createFlagstaff({
    store: createMemoryStore(),
    webhookAllowedHosts: ['127.0.0.1'],
    ...options.flagstaff,
  });
  const adminToken = (await flagstaff.apiTokens.ensureAdminToken()) ?? '';
  const logged: TestServer['logged'] = [];
  const logger: Logger = {
    info: (msg, fields) => logged.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => logged.push({ level: 'warn', msg, fields }),
    error: (msg, fields) => logged.push({ level: 'error', msg, fields }),
  };
  const prefix = options.prefix ?? '';
  // Tests act as users by sending `x-test-user: <id>`, the way a host app's own login would.
  const authenticate: HarnessAuthenticate = async (req) => {
    const id = req.headers['x-test-user'];
    return typeof id === 'string' ? flagstaff.access.userPrincipal(Number(id)) : null;
  };
  const server = await listen(testAdapter(), prefix, flagstaff, { logger, authenticate, ...options.router });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}${prefix}`;

  let userCount = 0;
  // Strict in tests: an answer that breaks its route's output schema fails the request that got it.
  const responses = createResponseCheck();

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? adminToken : opts.token;
    if (token !== null) headers.authorization = token;
    let body: string | Uint8Array | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      if (opts.contentType) headers['content-type'] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    const res = await fetch(`${base}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    responses.check(method, path, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    flagstaff,
    base,
    adminToken,
    logged,
    get responsesChecked() {
      return responses.checked;
    },
    request,
    async user(rootRole, email) {
      const user = await flagstaff.users.create(SYSTEM, {
        email: email ?? `${rootRole.toLowerCase()}-${userCount++}@example.com`,
        rootRole,
      });
      return user.id;
    },
    async token(type, extra = {}) {
      const res = await request('POST', '/api/admin/api-tokens', {
        body: {
          tokenName: `${type}-token`,
          type,
          ...(type === 'admin' ? {} : { environment: 'development' }),
          ...extra,
        },
      });
      if (res.status !== 201) throw new Error(`could not create a ${type} token: ${res.status} ${res.text}`);
      return res.body.secret as string;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      await flagstaff.close();
    },
  };
}

/** Asserts the contract's error body shape and returns it. */
export function errorBody(res: HttpResult): { id: string; name: string; message: string; path?: string } {
  const body = res.body as { id?: unknown; name?: unknown; message?: unknown };
  if (typeof body !== 'object' || body === null) throw new Error(`expected an error body, got ${res.text}`);
  if (typeof body.id !== 'string' || typeof body.name !== 'string' || typeof body.message !== 'string')
    throw new Error(`error body lacks id/name/message: ${res.text}`);
  return body as { id: string; name: string; message: string };
}
