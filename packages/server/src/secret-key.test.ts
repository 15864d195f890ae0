import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@flagstaff/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { jsonLogger } from './logger.js';
import { type RunningServer, startServer } from './server.js';

const dirs: string[] = [];
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ADMIN = `*:*.${'9f'.repeat(32)}`;

async function start(dir: string, env: Record<string, string> = {}) {
  const logger: Logger = jsonLogger(() => {});
  const config: ServerConfig = {
    ...loadConfig({ DATABASE_URL: join(dir, 'data', 'flagstaff.db'), FLAGSTAFF_ADMIN_TOKEN: ADMIN, ...env }),
    port: 0,
    host: '127.0.0.1',
  };
  const server = await startServer(config, logger);
  running.push(server);
  return server;
}

type Tokens = { secret: string; tokens: { secret: string }[] };

const api = (server: RunningServer, method: string, path: string, body?: unknown): Promise<Tokens> =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((res) => res.json() as Promise<Tokens>);

describe('token secrets on the standalone server', () => {
  it('generates secret.key (mode 0600) beside the database once; GET /api-tokens/:name gives the usable secret across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagstaff-secrets-'));
    dirs.push(dir);
    let server = await start(dir);
    const keyFile = join(dir, 'data', 'secret.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    const created = await api(server, 'POST', '/api/admin/api-tokens', {
      tokenName: 'backend',
      type: 'client',
    });
    await server.close();
    running.length = 0;

    server = await start(dir);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    const listed = await api(server, 'GET', '/api/admin/api-tokens/backend');
    expect(listed.tokens[0]!.secret).toBe(created.secret);
    const features = await fetch(`${server.url}/api/client/features`, {
      headers: { authorization: listed.tokens[0]!.secret },
    });
    expect(features.status).toBe(200);
  });

  it('FLAGSTAFF_TOKEN_SECRETS=write-only keeps listings masked; a bad value is refused by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagstaff-secrets-'));
    dirs.push(dir);
    const server = await start(dir, { FLAGSTAFF_TOKEN_SECRETS: 'write-only' });
    const created = await api(server, 'POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client' });
    const listed = await api(server, 'GET', '/api/admin/api-tokens/sdk');
    expect(listed.tokens[0]!.secret).not.toBe(created.secret);
    expect(() => loadConfig({ FLAGSTAFF_TOKEN_SECRETS: 'sometimes' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_TOKEN_SECRETS: 'sometimes' })).toThrow(/FLAGSTAFF_TOKEN_SECRETS/);
  });
});
