// The official Unleash Node SDK (unleash-client) sees a change made through a change request only
// once the request is applied: drafting, reviewing and approving leave what SDKs get untouched.
import { once } from 'node:events';
import { createMemoryStore } from '@flagstaff/core';
import { createUserCaller } from '@flagstaff/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { createNodeSdk, type SdkTestServer, startSdkServer } from './testing/sdk-server.js';

let s: SdkTestServer;
const P = '/api/admin/projects/default';

/** Resolves once `check` holds, polling every few ms. */
async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const polls = () => s.hits.get('/api/client/features') ?? 0;

describe.skipIf(testAdapter() !== 'node')('unleash-client and change requests', () => {
  beforeAll(async () => {
    s = await startSdkServer(createMemoryStore(), { revalidateMs: 0 });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('gets the change only after the request is applied', async () => {
    expect((await s.request('POST', `${P}/features`, { body: { name: 'guarded' } })).status).toBe(200);
    const config = await s.request('PUT', `${P}/environments/development/change-requests/config`, {
      body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    });
    expect(config.status).toBe(204);
    const sdk = createNodeSdk({
      base: s.base,
      token: await s.token('client'),
      appName: 'cr',
      refreshInterval: 50,
    });
    try {
      await once(sdk, 'synchronized');
      expect(sdk.isEnabled('guarded', { userId: 'u' })).toBe(false);

      // Direct changes are refused; the change goes into a request instead.
      expect((await s.request('POST', `${P}/features/guarded/environments/development/on`)).status).toBe(403);
      const ann = await createUserCaller(s.flagstaff, 'ann@example.com');
      const bob = await createUserCaller(s.flagstaff, 'bob@example.com');
      const crs = s.flagstaff.changeRequests;
      const draft = await crs.addChanges(ann.caller, 'default', 'development', {
        feature: 'guarded',
        action: 'updateEnabled',
        payload: { enabled: true },
      });
      await crs.changeState(ann.caller, 'default', draft.id, { state: 'In review' });
      await crs.changeState(bob.caller, 'default', draft.id, { state: 'Approved' });

      // The SDK polls several times while the request waits: still off.
      const seen = polls();
      await until(() => polls() >= seen + 3, 5_000);
      expect(sdk.isEnabled('guarded', { userId: 'u' })).toBe(false);

      const applied = await s.request('PUT', `${P}/change-requests/${draft.id}/state`, {
        body: { state: 'Applied' },
      });
      expect(applied.status, applied.text).toBe(200);
      await until(() => sdk.isEnabled('guarded', { userId: 'u' }), 5_000);
    } finally {
      sdk.destroy();
    }
  });
});
