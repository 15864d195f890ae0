import { createAddressRanges, createOutboundPolicy, parseAllowedHosts } from '@flagstaff/core';

/** Where the standalone server keeps its data. */
export type DatabaseConfig =
  | { kind: 'sqlite'; filename: string }
  | {
      kind: 'postgres';
      url: string;
      /** FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: longest a statement may run (store default 30000; 0 sets none). */
      statementTimeoutMs?: number;
    };

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  auth: 'token' | 'none';
  /** FLAGSTAFF_ADMIN_TOKEN: the secret of the first admin token (generated and printed once otherwise). */
  adminToken: string | undefined;
  /** FLAGSTAFF_ADMIN_PASSWORD: the password of the first user `admin` (generated and printed once otherwise). */
  adminPassword: string | undefined;
  /** FLAGSTAFF_SECRET_KEY: the key API token secrets are sealed with (SQLite: generated into the data directory otherwise). */
  secretKey: string | undefined;
  /** FLAGSTAFF_TOKEN_SECRETS=write-only: never keep token secrets; listings show a masked prefix. */
  tokenSecretsWriteOnly: boolean;
  /** Public base URL, used in invite links. */
  baseUrl: string | undefined;
  bodyLimit: string | undefined;
  /** Body limit of the import routes (default 25 MB in the router). */
  importBodyLimit: string | undefined;
  /**
   * FLAGSTAFF_STREAM_MAX_CONNECTIONS / FLAGSTAFF_STREAM_MAX_PER_TOKEN / FLAGSTAFF_STREAM_KEEPALIVE_MS:
   * SDK streaming limits (defaults in @flagstaff/http).
   */
  streaming: { maxConnections?: number; maxPerToken?: number; keepAliveMs?: number };
  /**
   * FLAGSTAFF_LOGIN_MAX_HASHES / FLAGSTAFF_LOGIN_MAX_QUEUED / FLAGSTAFF_LOGIN_MAX_HASHES_PER_CLIENT:
   * password hashes sign-ins may run, queue, and hold per client address (defaults in @flagstaff/core).
   */
  loginHashLimits: { maxInFlight?: number; maxQueued?: number; maxPerClient?: number };
  /**
   * FLAGSTAFF_AUTH_MAX_FAILURES / FLAGSTAFF_AUTH_FAILURE_WINDOW_MS: unknown credentials one client
   * address may present per window before it gets 429s (defaults in @flagstaff/http).
   */
  authFailures: { maxFailures?: number; windowMs?: number };
  /** FLAGSTAFF_ADDON_RETRY_WINDOW_MS / FLAGSTAFF_ADDON_RETRY_BASE_MS: how long and how soon addon deliveries are retried. */
  addonDelivery: { retryWindowMs?: number; retryBaseDelayMs?: number };
  /**
   * FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: comma-separated host names, IP addresses or CIDR ranges addons
   * may reach although the outbound policy refuses them by default (loopback, private, link-local…).
   */
  webhookAllowedHosts: string[];
  /**
   * FLAGSTAFF_TRUST_PROXY: comma-separated addresses or CIDR ranges of reverse proxies on other
   * machines whose `X-Forwarded-For` is believed (loopback proxies always are).
   */
  trustProxy: string[];
  /**
   * FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS / FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES: bounds of one advanced
   * playground request (defaults in @flagstaff/core: 10,000 evaluations, a 20 MB answer).
   */
  playground: { maxEvaluations?: number; maxAnswerBytes?: number };
  /** How long shutdown waits for requests in flight before cutting connections. */
  shutdownTimeoutMs: number;
  /** FLAGSTAFF_SECURE_COOKIES=true: always mark the session cookie Secure (otherwise only behind X-Forwarded-Proto: https). */
  secureCookies: boolean;
  /** FLAGSTAFF_PAT_MAX_LIFETIME_DAYS: furthest ahead a personal access token may expire (core default 365). */
  patMaxLifetimeDays: number | undefined;
  /** FLAGSTAFF_MCP=true: serve the Model Context Protocol endpoint at /mcp (off by default). */
  mcp: boolean;
  /**
   * FLAGSTAFF_IDLE_GC=false: never run a full garbage collection when the server goes quiet after
   * its heap grew (on by default; see `idle-collection.ts`).
   */
  idleCollection: boolean;
}

export const DEFAULT_SQLITE_FILE = './data/flagstaff.db';

/** A configuration problem, reported once at start-up. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 4242;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`PORT must be a port number (0–65535), not "${value}".`);
  return n;
}

/** `postgres://…` or `postgresql://…` is PostgreSQL; anything else is an SQLite file path (`sqlite:` / `file:` prefixes allowed). */
export function databaseConfig(url: string | undefined): DatabaseConfig {
  const value = url?.trim();
  if (!value) return { kind: 'sqlite', filename: DEFAULT_SQLITE_FILE };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  const filename = value.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:(\/\/)?/i, '');
  if (!filename) throw new ConfigError(`DATABASE_URL "${value}" names no SQLite file.`);
  return { kind: 'sqlite', filename };
}

/** FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: unset leaves the store's default; only PostgreSQL uses it. */
export function statementTimeout(value: string | undefined): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n))
    throw new ConfigError(
      `FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds (0 sets none), not "${value}".`,
    );
  return n;
}

function auth(value: string | undefined): 'token' | 'none' {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'token') return 'token';
  if (v === 'none') return 'none';
  throw new ConfigError(`FLAGSTAFF_AUTH must be "token" or "none", not "${value}".`);
}

function withStatementTimeout(db: DatabaseConfig, statementTimeoutMs: number | undefined): DatabaseConfig {
  return db.kind === 'postgres' && statementTimeoutMs !== undefined ? { ...db, statementTimeoutMs } : db;
}

/** An optional positive integer setting, as `{ [key]: n }` or `{}` when unset. */
function positive(name: string, value: string | undefined, key: string): Record<string, number> {
  if (value === undefined || value.trim() === '') return {};
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(`${name} must be a positive integer, not "${value}"`);
  return { [key]: n };
}

/** An optional whole-number setting (0 allowed), as `{ [key]: n }` or `{}` when unset. */
function whole(name: string, value: string | undefined, key: string): Record<string, number> {
  if (value === undefined || value.trim() === '') return {};
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number, not "${value}"`);
  return { [key]: n };
}

/** The random part an operator-chosen admin secret needs at least: it is a full admin credential. */
export const ADMIN_TOKEN_MIN_RANDOM = 32;
const ADMIN_TOKEN_PATTERN = /^\*:\*\.[A-Za-z0-9_-]{32,}$/;

/**
 * FLAGSTAFF_ADMIN_TOKEN, refused at start-up unless it is `*:*.` and at least 32 letters, digits,
 * `-` or `_`: a short bootstrap secret would be the easiest admin credential to guess.
 */
export function adminTokenSetting(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (!ADMIN_TOKEN_PATTERN.test(v))
    throw new ConfigError(
      `FLAGSTAFF_ADMIN_TOKEN must look like "*:*.<at least ${ADMIN_TOKEN_MIN_RANDOM} letters, digits, - or _>" (e.g. "*:*." followed by \`openssl rand -hex 32\`); the value given is not, so the server did not start.`,
    );
  return v;
}

function tokenSecrets(value: string | undefined): boolean {
  const v = value?.trim() || 'readable';
  if (v !== 'readable' && v !== 'write-only')
    throw new ConfigError(`FLAGSTAFF_TOKEN_SECRETS must be "readable" or "write-only", not "${v}".`);
  return v === 'write-only';
}

/** A true/false setting: unset or empty is `false`. */
function flag(name: string, value: string | undefined): boolean {
  const v = value?.trim().toLowerCase() || 'false';
  if (v !== 'true' && v !== 'false')
    throw new ConfigError(`${name} must be "true" or "false", not "${value}".`);
  return v === 'true';
}

/** FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS, each entry checked so a typo stops the start. */
function allowedHosts(value: string | undefined): string[] {
  const hosts = parseAllowedHosts(value);
  try {
    createOutboundPolicy(hosts);
  } catch (error) {
    throw new ConfigError(`FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: ${(error as Error).message}`);
  }
  return hosts;
}

/** FLAGSTAFF_TRUST_PROXY, each entry checked so a typo stops the start. */
function trustProxy(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  try {
    createAddressRanges(entries);
  } catch (error) {
    throw new ConfigError(`FLAGSTAFF_TRUST_PROXY: ${(error as Error).message}`);
  }
  return entries;
}

/** Reads the configuration from environment variables. */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  return {
    port: port(env.PORT),
    host: env.HOST?.trim() || '0.0.0.0',
    database: withStatementTimeout(
      databaseConfig(env.DATABASE_URL),
      statementTimeout(env.FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS),
    ),
    auth: auth(env.FLAGSTAFF_AUTH),
    adminToken: adminTokenSetting(env.FLAGSTAFF_ADMIN_TOKEN),
    adminPassword: env.FLAGSTAFF_ADMIN_PASSWORD || undefined,
    secretKey: env.FLAGSTAFF_SECRET_KEY?.trim() || undefined,
    tokenSecretsWriteOnly: tokenSecrets(env.FLAGSTAFF_TOKEN_SECRETS),
    baseUrl: env.FLAGSTAFF_BASE_URL?.trim() || undefined,
    bodyLimit: env.FLAGSTAFF_BODY_LIMIT?.trim() || undefined,
    importBodyLimit: env.FLAGSTAFF_IMPORT_BODY_LIMIT?.trim() || undefined,
    streaming: {
      ...positive('FLAGSTAFF_STREAM_MAX_CONNECTIONS', env.FLAGSTAFF_STREAM_MAX_CONNECTIONS, 'maxConnections'),
      ...positive('FLAGSTAFF_STREAM_MAX_PER_TOKEN', env.FLAGSTAFF_STREAM_MAX_PER_TOKEN, 'maxPerToken'),
      ...positive('FLAGSTAFF_STREAM_KEEPALIVE_MS', env.FLAGSTAFF_STREAM_KEEPALIVE_MS, 'keepAliveMs'),
    },
    loginHashLimits: {
      ...positive('FLAGSTAFF_LOGIN_MAX_HASHES', env.FLAGSTAFF_LOGIN_MAX_HASHES, 'maxInFlight'),
      ...whole('FLAGSTAFF_LOGIN_MAX_QUEUED', env.FLAGSTAFF_LOGIN_MAX_QUEUED, 'maxQueued'),
      ...positive(
        'FLAGSTAFF_LOGIN_MAX_HASHES_PER_CLIENT',
        env.FLAGSTAFF_LOGIN_MAX_HASHES_PER_CLIENT,
        'maxPerClient',
      ),
    },
    authFailures: {
      ...positive('FLAGSTAFF_AUTH_MAX_FAILURES', env.FLAGSTAFF_AUTH_MAX_FAILURES, 'maxFailures'),
      ...positive('FLAGSTAFF_AUTH_FAILURE_WINDOW_MS', env.FLAGSTAFF_AUTH_FAILURE_WINDOW_MS, 'windowMs'),
    },
    addonDelivery: {
      ...positive('FLAGSTAFF_ADDON_RETRY_WINDOW_MS', env.FLAGSTAFF_ADDON_RETRY_WINDOW_MS, 'retryWindowMs'),
      ...positive('FLAGSTAFF_ADDON_RETRY_BASE_MS', env.FLAGSTAFF_ADDON_RETRY_BASE_MS, 'retryBaseDelayMs'),
    },
    webhookAllowedHosts: allowedHosts(env.FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS),
    trustProxy: trustProxy(env.FLAGSTAFF_TRUST_PROXY),
    playground: {
      ...positive(
        'FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS',
        env.FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS,
        'maxEvaluations',
      ),
      ...positive(
        'FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES',
        env.FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES,
        'maxAnswerBytes',
      ),
    },
    shutdownTimeoutMs: 10_000,
    secureCookies: flag('FLAGSTAFF_SECURE_COOKIES', env.FLAGSTAFF_SECURE_COOKIES),
    patMaxLifetimeDays: positive(
      'FLAGSTAFF_PAT_MAX_LIFETIME_DAYS',
      env.FLAGSTAFF_PAT_MAX_LIFETIME_DAYS,
      'days',
    ).days,
    mcp: flag('FLAGSTAFF_MCP', env.FLAGSTAFF_MCP),
    idleCollection: flag('FLAGSTAFF_IDLE_GC', env.FLAGSTAFF_IDLE_GC || 'true'),
  };
}

/** The database as it may be logged: no password. */
export function describeDatabase(db: DatabaseConfig): string {
  if (db.kind === 'sqlite') return `sqlite:${db.filename}`;
  try {
    const url = new URL(db.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres';
  }
}
