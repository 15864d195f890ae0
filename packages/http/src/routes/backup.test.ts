import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from '../testing/harness.js';
import { type SdkTestServer, startSdkServer } from '../testing/sdk-server.js';

const ADMIN = `*:*.${'5e'.repeat(32)}`;
const dir = mkdtempSync(join(tmpdir(), 'flagstaff-backup-route-'));
let s: SdkTestServer;

beforeAll(async () => {
  s = await startSdkServer(await sqliteStore({ filename: join(dir, 'live.db') }), { adminToken: ADMIN });
  await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'kept' } });
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testAdapter() !== 'node')('GET /api/admin/backup', () => {
  it('downloads a consistent SQLite file that opens as a whole store', async () => {
    const res = await fetch(`${s.base}/api/admin/backup`, { headers: { authorization: ADMIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="flagstaff-.*\.db"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(Number(res.headers.get('content-length')));
    const file = join(dir, 'downloaded.db');
    writeFileSync(file, bytes);
    const restored = await sqliteStore({ filename: file });
    expect((await restored.features.list()).map((f) => f.name)).toEqual(['kept']);
    await restored.close();
  });

  it('is for root Admins only: a client token gets 403', async () => {
    const client = await s.token('client');
    const res = await fetch(`${s.base}/api/admin/backup`, { headers: { authorization: client } });
    expect(res.status).toBe(403);
  });

  it('answers 404 naming pg_dump where the store has no backup (memory, PostgreSQL)', async () => {
    const memory = await startSdkServer(createMemoryStore(), { adminToken: ADMIN });
    try {
      const res = await fetch(`${memory.base}/api/admin/backup`, { headers: { authorization: ADMIN } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toContain('pg_dump');
    } finally {
      await memory.close();
    }
  });
});
