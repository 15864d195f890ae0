// The official browser SDK (unleash-proxy-client 3.8) against /api/frontend: it must get the same
// answers as the playground for each context it is given, and its metrics must be accepted.
import { createMemoryStore, type EvaluationContext, SYSTEM } from '@flagstaff/core';
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { type SdkTestServer, startSdkServer } from './testing/sdk-server.js';
import { generateSeedableFlagSet, seedFlagSet } from './testing/seed-flag-set.js';

const { payload, contexts } = generateSeedableFlagSet({ flags: 120, contexts: 12, seed: 11 });

/** What the browser SDK can send: its context fields and string properties. */
const browserContext = (c: EvaluationContext) => ({
  ...(c.userId === undefined ? {} : { userId: c.userId }),
  ...(c.sessionId === undefined ? {} : { sessionId: c.sessionId }),
  ...(c.remoteAddress === undefined ? {} : { remoteAddress: c.remoteAddress }),
  ...(c.currentTime === undefined ? {} : { currentTime: String(c.currentTime) }),
  properties: Object.fromEntries(
    Object.entries(c.properties ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ),
});

let s: SdkTestServer;
let frontendToken: string;

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(testAdapter() !== 'node')('unleash-proxy-client against /api/frontend', () => {
  beforeAll(async () => {
    s = await startSdkServer(createMemoryStore());
    await seedFlagSet(s.request, payload);
    frontendToken = await s.token('frontend');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  it('agrees with the playground on every feature for each context, and its metrics are recorded', async () => {
    const client = new UnleashClient({
      url: `${s.base}/api/frontend`,
      clientKey: frontendToken,
      appName: 'browser-app',
      refreshInterval: 0,
      metricsInterval: 1,
      metricsIntervalInitial: 1,
      storageProvider: new InMemoryStorageProvider(),
    });
    client.on('error', () => {});
    await client.start();
    let compared = 0;
    let enabled = 0;
    for (const context of contexts) {
      const sent = browserContext(context);
      await client.updateContext(sent);
      const res = await s.request('POST', '/api/admin/playground', {
        body: { environment: 'development', projects: '*', context: { appName: 'browser-app', ...sent } },
      });
      expect(res.status).toBe(200);
      for (const f of res.body.features as {
        name: string;
        isEnabled: boolean;
        variant: { name: string };
      }[]) {
        expect([f.name, client.isEnabled(f.name)]).toEqual([f.name, f.isEnabled]);
        if (f.isEnabled) expect([f.name, client.getVariant(f.name).name]).toEqual([f.name, f.variant.name]);
        compared++;
        if (f.isEnabled) enabled++;
      }
    }
    expect(compared).toBe(payload.features.length * contexts.length);
    // Both answers were exercised.
    expect(enabled).toBeGreaterThan(compared / 10);
    expect(enabled).toBeLessThan(compared);

    await until(() => (s.hits.get('/api/frontend/client/metrics') ?? 0) > 0, 10_000);
    client.stop();
    const buckets = await s.flagstaff.metrics.bucketsSince(SYSTEM, '1970-01-01T00:00:00.000Z');
    const counted = buckets.filter((b) => b.appName === 'browser-app');
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((b) => b.environment === 'development')).toBe(true);
  }, 60_000);
});
