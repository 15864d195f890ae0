import { EventEmitter } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@flagstaff/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, databaseConfig, describeDatabase, loadConfig, type ServerConfig } from './config.js';
import { jsonLogger } from './logger.js';
import { type RunningServer, startServer } from './server.js';
import { handleSignals } from './shutdown.js';

const dirs: string[] = [];
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-server-'));
  dirs.push(dir);
  const lines: Record<string, unknown>[] = [];
  const logger: Logger = jsonLogger((line) => lines.push(JSON.parse(line)));
  const config: ServerConfig = {
    ...loadConfig({ DATABASE_URL: join(dir, 'data', 'flagstaff.db'), ...env }),
    port: 0,
    host: '127.0.0.1',
  };
  return { dir, lines, logger, config };
}

async function start(env: Record<string, string> = {}) {
  const ctx = setup(env);
  const server = await startServer(ctx.config, ctx.logger);
  running.push(server);
  return { ...ctx, server };
}

describe('standalone server', () => {
  it('answers /health, prints a generated admin token once, serves the API with it, and logs JSON lines', async () => {
    const { server, lines } = await start();
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const printed = lines.filter((l) => typeof l.adminToken === 'string');
    expect(printed).toHaveLength(1);
    const token = printed[0]!.adminToken as string;
    expect(token).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    const projects = await fetch(`${server.url}/api/admin/projects`, { headers: { authorization: token } });
    expect(projects.status).toBe(200);
    expect((await fetch(`${server.url}/api/admin/projects`)).status).toBe(401);
    expect(lines.find((l) => l.msg === 'request' && l.status === 401)).toMatchObject({
      method: 'GET',
      path: '/api/admin/projects',
    });
    expect(lines.every((l) => typeof l.time === 'string' && typeof l.level === 'string')).toBe(true);
  });

  it('creates the user admin once with a printed password that signs in; / goes to the UI', async () => {
    const { server, lines, config } = await start();
    const printed = lines.filter((l) => typeof l.adminPassword === 'string');
    expect(printed).toHaveLength(1);
    const login = await fetch(`${server.url}/auth/simple/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: printed[0]!.adminPassword }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const me = await fetch(`${server.url}/api/admin/user`, { headers: { cookie } });
    expect(((await me.json()) as { permissions: unknown[] }).permissions).toEqual([{ permission: 'ADMIN' }]);
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
    await server.close();
    const relines: Record<string, unknown>[] = [];
    running.push(
      await startServer(
        config,
        jsonLogger((l) => relines.push(JSON.parse(l))),
      ),
    );
    expect(relines.some((l) => 'adminPassword' in l)).toBe(false);
  });

  it('takes the first password from FLAGSTAFF_ADMIN_PASSWORD and refuses a weak one at start', async () => {
    const { server, lines } = await start({ FLAGSTAFF_ADMIN_PASSWORD: 'Operator-Chosen-99' });
    expect(JSON.stringify(lines)).not.toContain('Operator-Chosen-99');
    const login = await fetch(`${server.url}/auth/simple/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Operator-Chosen-99' }),
    });
    expect(login.status).toBe(200);
    await expect(start({ FLAGSTAFF_ADMIN_PASSWORD: 'short' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('takes the admin secret from FLAGSTAFF_ADMIN_TOKEN and does not print it; restarts keep the data and print nothing', async () => {
    const secret = '*:*.my-operator-chosen-secret-of-enough-length';
    const first = await start({ FLAGSTAFF_ADMIN_TOKEN: secret });
    expect(JSON.stringify(first.lines)).not.toContain(secret);
    const create = await fetch(`${first.server.url}/api/admin/projects/default/features`, {
      method: 'POST',
      headers: { authorization: secret, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept' }),
    });
    expect(create.status).toBe(200);
    await first.server.close();
    const lines: Record<string, unknown>[] = [];
    const again = await startServer(
      first.config,
      jsonLogger((l) => lines.push(JSON.parse(l))),
    );
    running.push(again);
    expect(lines.some((l) => 'adminToken' in l)).toBe(false);
    const feature = await fetch(`${again.url}/api/admin/projects/default/features/kept`, {
      headers: { authorization: secret },
    });
    expect(feature.status).toBe(200);
  });

  it('F9: the request log redacts secrets in paths (API tokens, invite links) and drops query strings', async () => {
    const { server, lines } = await start();
    const admin = lines.find((l) => typeof l.adminToken === 'string')!.adminToken as string;
    const headers = { authorization: admin, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/admin/api-tokens`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { secret } = (await created.json()) as { secret: string };
    const update = await fetch(`${server.url}/api/admin/api-tokens/${encodeURIComponent(secret)}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ expiresAt: '2099-01-01T00:00:00.000Z' }),
    });
    expect(update.status).toBe(200);
    const invite = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    await fetch(`${server.url}/invite/${invite}/validate`);
    await fetch(`${server.url}/api/admin/invite-link/tokens/${invite}`, { headers });
    await fetch(`${server.url}/auth/reset/validate?token=${invite}`);
    const requests = lines.filter((l) => l.msg === 'request');
    const logged = JSON.stringify(requests);
    expect(logged).not.toContain(secret.split('.')[1]);
    expect(logged).not.toContain(invite);
    expect(requests.map((l) => l.path)).toEqual(
      expect.arrayContaining([
        '/api/admin/api-tokens/<redacted>',
        '/invite/<redacted>/validate',
        '/api/admin/invite-link/tokens/<redacted>',
        '/auth/reset/validate',
      ]),
    );
  });

  it.skipIf(process.platform === 'win32')(
    'F11: the data directory is created 0700, the database, its -wal and -shm files and secret.key 0600',
    async () => {
      const { server, dir, lines } = await start();
      const admin = lines.find((l) => typeof l.adminToken === 'string')!.adminToken as string;
      await fetch(`${server.url}/api/admin/projects/default/features`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'written' }),
      });
      const mode = (path: string) => statSync(join(dir, 'data', path)).mode & 0o777;
      expect(mode('.')).toBe(0o700);
      for (const file of ['flagstaff.db', 'flagstaff.db-wal', 'flagstaff.db-shm', 'secret.key'])
        expect([file, mode(file)]).toEqual([file, 0o600]);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'F11: a database file an earlier version left world-readable is made private on start',
    async () => {
      const ctx = setup();
      mkdirSync(join(ctx.dir, 'data'));
      writeFileSync(join(ctx.dir, 'data', 'flagstaff.db'), '', { mode: 0o644 });
      chmodSync(join(ctx.dir, 'data', 'flagstaff.db'), 0o644);
      running.push(await startServer(ctx.config, ctx.logger));
      expect(statSync(join(ctx.dir, 'data', 'flagstaff.db')).mode & 0o777).toBe(0o600);
    },
  );

  it('FLAGSTAFF_AUTH=none turns authentication off', async () => {
    const { server } = await start({ FLAGSTAFF_AUTH: 'none' });
    expect((await fetch(`${server.url}/api/admin/projects`)).status).toBe(200);
  });

  it('shutdown finishes requests in flight, refuses new connections and closes the store', async () => {
    const { server } = await start({ FLAGSTAFF_AUTH: 'none' });
    // Shut down while the request is being handled, as a SIGTERM under load would.
    const closing = new Promise<void>((resolve) =>
      server.server.once('request', () => resolve(server.close())),
    );
    const inFlight = fetch(`${server.url}/api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'during-shutdown' }),
    });
    expect((await inFlight).status).toBe(200);
    await closing;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    await expect(server.flagstaff.store.projects.list()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });

  it('SIGTERM runs the shutdown and exits 0; a second signal exits 1', async () => {
    const proc = Object.assign(new EventEmitter(), { exit: vi.fn() });
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    handleSignals(close, proc as never, { error() {} });
    proc.emit('SIGTERM');
    expect(close).toHaveBeenCalledTimes(1);
    expect(proc.exit).not.toHaveBeenCalled();
    finish();
    await new Promise((r) => setImmediate(r));
    expect(proc.exit).toHaveBeenCalledWith(0);
    proc.emit('SIGINT');
    expect(proc.exit).toHaveBeenLastCalledWith(1);
    expect(close).toHaveBeenCalledTimes(1);
  });
});

describe('configuration', () => {
  it('defaults to port 4242, token auth and ./data/flagstaff.db', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4242,
      auth: 'token',
      database: { kind: 'sqlite', filename: './data/flagstaff.db' },
    });
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_AUTH: 'maybe' })).toThrow(ConfigError);
  });
  it('DATABASE_URL takes a postgres:// URL or an SQLite path, and is logged without its password', () => {
    expect(databaseConfig('postgres://u:pw@db:5432/flags')).toEqual({
      kind: 'postgres',
      url: 'postgres://u:pw@db:5432/flags',
    });
    expect(databaseConfig('postgresql://db/flags').kind).toBe('postgres');
    expect(databaseConfig('/var/lib/flags.db')).toEqual({ kind: 'sqlite', filename: '/var/lib/flags.db' });
    expect(databaseConfig('sqlite:./x.db')).toEqual({ kind: 'sqlite', filename: './x.db' });
    expect(describeDatabase(databaseConfig('postgres://u:pw@db:5432/flags'))).not.toContain('pw');
  });
});
