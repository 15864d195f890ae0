import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from './config.js';
import { jsonLogger } from './logger.js';
import { type RunningServer, startServer } from './server.js';

/** The security settings of the standalone server, end to end (findings F3, F19, F21). */
const ADMIN = `*:*.${'5c'.repeat(32)}`;
const PASSWORD = 'Operator-Chosen-99';
const DAY = 86_400_000;

const dirs: string[] = [];
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-security-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const config: ServerConfig = {
    ...loadConfig({
      DATABASE_URL: join(dir, 'data', 'flagstaff.db'),
      FLAGSTAFF_ADMIN_TOKEN: ADMIN,
      FLAGSTAFF_ADMIN_PASSWORD: PASSWORD,
      ...env,
    }),
    port: 0,
    host: '127.0.0.1',
  };
  const server = await startServer(
    config,
    jsonLogger(() => {}),
  );
  running.push(server);
  return server;
}

/** Signs in as `admin`, as the admin UI does (same origin). */
async function login(server: RunningServer): Promise<Response> {
  return fetch(`${server.url}/auth/simple/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
}

async function resetLink(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/user-admin/reset-password`, {
    method: 'POST',
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'admin' }),
  });
  const { resetPasswordUrl } = (await res.json()) as { resetPasswordUrl: string };
  return new URL(resetPasswordUrl, server.url).searchParams.get('token') ?? '';
}

const validate = (server: RunningServer, token: string) =>
  fetch(`${server.url}/auth/reset/validate?token=${encodeURIComponent(token)}`).then((r) => r.status);

describe('standalone server security settings', () => {
  it('F3: a reset link survives a restart under the same secret.key, and a copy of the database alone cannot use it', async () => {
    const dir = tempDir();
    let server = await start(dir);
    const token = await resetLink(server);
    expect(await validate(server, token)).toBe(200);
    await server.close();
    running.length = 0;
    server = await start(dir);
    expect(await validate(server, token)).toBe(200);
    const admin = await server.flagstaff.store.users.getByUsername('admin');
    await server.close();
    running.length = 0;
    // The database copied without the key file (a backup): the key is not in it.
    const copy = tempDir();
    mkdirSync(join(copy, 'data'));
    copyFileSync(join(dir, 'data', 'flagstaff.db'), join(copy, 'data', 'flagstaff.db'));
    const restored = await start(copy);
    // Same user, same password hash: only the key differs.
    expect(await restored.flagstaff.store.users.getByUsername('admin')).toEqual(admin);
    expect(await validate(restored, token)).toBe(401);
  });

  it('F21: FLAGSTAFF_SECURE_COOKIES=true marks the session cookie Secure over plain HTTP; by default it is not', async () => {
    const plain = await login(await start(tempDir()));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
    const forced = await login(await start(tempDir(), { FLAGSTAFF_SECURE_COOKIES: 'true' }));
    expect(forced.status).toBe(200);
    expect(forced.headers.get('set-cookie')).toContain('; Secure');
  });

  it('F19: FLAGSTAFF_PAT_MAX_LIFETIME_DAYS caps personal access tokens with a 400 naming the limit', async () => {
    const server = await start(tempDir(), { FLAGSTAFF_PAT_MAX_LIFETIME_DAYS: '7' });
    const cookie = ((await login(server)).headers.get('set-cookie') ?? '').split(';')[0]!;
    const create = (days: number) =>
      fetch(`${server.url}/api/admin/user/tokens`, {
        method: 'POST',
        headers: { cookie, origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({
          description: 'ci',
          expiresAt: new Date(Date.now() + days * DAY).toISOString(),
        }),
      });
    const tooLong = await create(8);
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { message: string }).message).toContain('7 days');
    expect((await create(6)).status).toBe(201);
  });
});
