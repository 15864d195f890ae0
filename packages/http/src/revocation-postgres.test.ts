// Two server processes on one PostgreSQL database: a token deleted through one is refused by the
// other as soon as the deletion's notification arrives (LISTEN/NOTIFY drops the token cache), not
// when a timer runs out; an expired token is refused at its expiry with no notification at all.
// Runs where a PostgreSQL server is configured (FLAGSTAFF_TEST_PG_URL; CI starts one).

import { randomBytes } from 'node:crypto';
import { postgresStore } from '@flagstaff/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { type SdkTestServer, startSdkServer } from './testing/sdk-server.js';

const pgUrl = process.env.FLAGSTAFF_TEST_PG_URL;
const ADMIN = `*:*.${'cd34'.repeat(16)}`;
const schema = `flagstaff_test_${randomBytes(8).toString('hex')}`;
let a: SdkTestServer;
let b: SdkTestServer;

const features = (server: SdkTestServer, token: string) =>
  server.request('GET', '/api/client/features', { token });

describe.skipIf(pgUrl === undefined || testAdapter() !== 'node')(
  'token revocation and the signal rate limit across processes on PostgreSQL',
  () => {
    beforeAll(async () => {
      a = await startSdkServer(
        await postgresStore({ connectionString: pgUrl!, schema, dropSchemaOnClose: true }),
        { adminToken: ADMIN },
      );
      b = await startSdkServer(await postgresStore({ connectionString: pgUrl!, schema }), {
        adminToken: ADMIN,
      });
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('a token deleted through one process is refused by the other once the notice arrives', async () => {
      const latencies: number[] = [];
      for (let round = 0; round < 5; round++) {
        const token = await a.token('client');
        // B has looked the token up and cached it.
        expect((await features(b, token)).status).toBe(200);
        expect((await features(b, token)).status).toBe(200);
        const deleted = await a.request('DELETE', `/api/admin/api-tokens/${encodeURIComponent(token)}`);
        expect(deleted.status).toBe(200);
        const committed = performance.now();
        // Ask B until it refuses; its cache alone would trust the token for another second.
        let status = 200;
        while (status === 200 && performance.now() - committed < 900)
          status = (await features(b, token)).status;
        latencies.push(performance.now() - committed);
        expect(status).toBe(401);
      }
      const sorted = [...latencies].sort((x, y) => x - y);
      console.log(
        `revocation across processes: ${sorted.map((ms) => ms.toFixed(1)).join(', ')} ms (delete answered → other process refuses)`,
      );
    });

    it('an expired token is refused by another process at its expiry, without any notice', async () => {
      const expiresAt = new Date(Date.now() + 1_500).toISOString();
      const token = await a.token('client');
      const set = await a.request('PUT', `/api/admin/api-tokens/${encodeURIComponent(token)}`, {
        body: { expiresAt },
      });
      expect(set.status).toBe(200);
      expect((await features(b, token)).status).toBe(200);
      // Keep B's cache warm up to the expiry, so only the expiry check can refuse the token.
      while (Date.now() < Date.parse(expiresAt) - 300) {
        expect((await features(b, token)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now() + 1)));
      expect((await features(b, token)).status).toBe(401);
    });

    it("the signal endpoint's rate limit holds across the two processes", async () => {
      const endpoint = await a.request('POST', '/api/admin/signal-endpoints', { body: { name: 'ci' } });
      expect(endpoint.status).toBe(201);
      const created = await a.request('POST', `/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, {
        body: { name: 'github' },
      });
      const auth = `Bearer ${created.body.token}`;
      const send = (server: SdkTestServer) =>
        server.request('POST', '/api/signal-endpoint/ci', { token: auth, body: { at: Date.now() } });
      const [first, second] = await Promise.all([send(a), send(b)]);
      expect([first.status, second.status].sort()).toEqual([202, 429]);
      expect((await send(b)).status).toBe(429);
    });
  },
);
