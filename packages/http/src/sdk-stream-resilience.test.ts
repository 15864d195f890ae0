// A streaming unleash-client against a server over a SQLite file: bad requests and a stream past the
// limit are refused without disturbing it, and it survives a server restart by reconnecting with
// its Last-Event-ID.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from '@flagstaff/store-sqlite';
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { createNodeSdk, type SdkTestServer, startSdkServer } from './testing/sdk-server.js';

const ADMIN = `*:*.${'cd34'.repeat(16)}`;
const F = '/api/admin/projects/default/features';
let dir: string;
let s: SdkTestServer;
let sdk: Unleash;
let clientToken: string;

const open = async (port: number) =>
  startSdkServer(await sqliteStore({ filename: join(dir, 'flags.db') }), {
    port,
    adminToken: ADMIN,
    streaming: { maxConnections: 3, keepAliveMs: 200 },
  });

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function toggle(name: string, on: boolean): Promise<void> {
  const res = await s.request('POST', `${F}/${name}/environments/development/${on ? 'on' : 'off'}`);
  expect(res.status).toBe(200);
}

describe.skipIf(testAdapter() !== 'node')('a streaming SDK', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagstaff-stream-'));
    s = await open(0);
    await s.request('POST', F, { body: { name: 'alpha' } });
    await toggle('alpha', true);
    clientToken = await s.token('client');
    sdk = createNodeSdk({
      base: s.base,
      token: clientToken,
      appName: 'resilience',
      mode: { type: 'streaming' },
    });
    await once(sdk, 'synchronized');
  });

  afterAll(async () => {
    sdk?.destroy();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not disturbed by a missing token (401), a wrong token type (403) or a stream past the limit (429)', async () => {
    const stream = (token?: string) =>
      fetch(`${s.base}/api/client/streaming`, { headers: token ? { authorization: token } : {} });
    expect((await stream()).status).toBe(401);
    expect((await stream(await s.token('frontend'))).status).toBe(403);
    const extra = [await stream(clientToken), await stream(clientToken)];
    expect(extra.map((r) => r.status)).toEqual([200, 200]);
    expect(extra[0]!.headers.get('content-type')).toBe('text/event-stream');
    const refused = await stream(clientToken);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { id: unknown; name: string; message: string };
    expect(body).toMatchObject({ name: 'TooManyRequestsError' });
    expect(typeof body.id).toBe('string');
    expect(body.message).toContain('3 streams');

    await toggle('alpha', false);
    await until(() => !sdk.isEnabled('alpha'), 2_000);
    for (const r of extra) await r.body?.cancel();
    expect(s.hits.get('/api/client/features') ?? 0).toBe(0);
  });

  it('reconnects after a restart with its Last-Event-ID and gets the changes made meanwhile', async () => {
    const port = s.port;
    await s.close();
    s = await open(port);
    // Made before the SDK is back: it must arrive as a change since the SDK's revision.
    await toggle('alpha', true);
    await until(() => sdk.isEnabled('alpha'), 10_000);
    expect(s.lastEventIds.length).toBeGreaterThan(0);
    expect(Number(s.lastEventIds[0])).toBeGreaterThan(0);
    await toggle('alpha', false);
    await until(() => !sdk.isEnabled('alpha'), 2_000);
    expect(s.hits.get('/api/client/features') ?? 0).toBe(0);
    expect(s.hits.get('/api/client/delta') ?? 0).toBe(0);
  }, 20_000);
});
