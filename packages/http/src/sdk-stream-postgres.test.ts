// Two server processes on one PostgreSQL database: a change made through one reaches the streaming
// SDKs connected to the other (LISTEN/NOTIFY), without their polling. Runs where a PostgreSQL server
// is configured (FLAGSTAFF_TEST_PG_URL; CI starts one).

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { postgresStore } from '@flagstaff/store-postgres';
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { createNodeSdk, type SdkTestServer, startSdkServer } from './testing/sdk-server.js';

const pgUrl = process.env.FLAGSTAFF_TEST_PG_URL;
const ADMIN = `*:*.${'ab12'.repeat(16)}`;
const F = '/api/admin/projects/default/features';
const schema = `flagstaff_test_${randomBytes(8).toString('hex')}`;
let writer: SdkTestServer;
let reader: SdkTestServer;
let sdk: Unleash;
const sdkUpdates: number[] = [];

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.skipIf(pgUrl === undefined || testAdapter() !== 'node')(
  'streams across processes on PostgreSQL',
  () => {
    beforeAll(async () => {
      writer = await startSdkServer(
        await postgresStore({ connectionString: pgUrl!, schema, dropSchemaOnClose: true }),
        { adminToken: ADMIN },
      );
      // The reader never re-reads the revision on its own within the test: only the notification
      // from the writer's process can tell it of a change.
      reader = await startSdkServer(await postgresStore({ connectionString: pgUrl!, schema }), {
        adminToken: ADMIN,
        revalidateMs: 600_000,
      });
      await writer.request('POST', F, { body: { name: 'shared' } });
      const token = await writer.token('client');
      sdk = createNodeSdk({
        base: reader.base,
        token: token,
        appName: 'cross-process',
        mode: { type: 'streaming' },
      });
      sdk.on('changed', () => sdkUpdates.push(Date.now()));
      await once(sdk, 'synchronized');
    });

    afterAll(async () => {
      sdk?.destroy();
      await reader?.close();
      await writer?.close();
    });

    it('a change written through one process reaches an SDK streaming from the other', async () => {
      expect(sdk.isEnabled('shared')).toBe(false);
      const on = await writer.request('POST', `${F}/shared/environments/development/on`);
      expect(on.status).toBe(200);
      await until(() => sdk.isEnabled('shared'), 5_000);
      const off = await writer.request('POST', `${F}/shared/environments/development/off`);
      expect(off.status).toBe(200);
      await until(() => !sdk.isEnabled('shared'), 5_000);
      // The SDK stayed on its stream: it never fell back to polling either server.
      expect(reader.hits.get('/api/client/features') ?? 0).toBe(0);
      expect(reader.hits.get('/api/client/streaming')).toBe(1);
    });

    it('a feature created through one process appears on the other stream, with its strategy', async () => {
      await writer.request('POST', F, { body: { name: 'created-later' } });
      const strategy = await writer.request(
        'POST',
        `${F}/created-later/environments/development/strategies`,
        {
          body: { name: 'userWithId', parameters: { userIds: 'ada' } },
        },
      );
      expect(strategy.status).toBe(200);
      await writer.request('POST', `${F}/created-later/environments/development/on`);
      await until(() => sdk.isEnabled('created-later', { userId: 'ada' }), 5_000);
      expect(sdk.isEnabled('created-later', { userId: 'bob' })).toBe(false);
    });
  },
);
