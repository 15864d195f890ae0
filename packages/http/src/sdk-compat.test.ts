// The official Unleash Node SDK against the router: it fetches /api/client/features with a client
// token, evaluates locally, and must agree with Flagstaff's own evaluation for every context.
import { once } from 'node:events';
import { InMemStorageProvider, Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
let sdk: Unleash;

const ok = (res: HttpResult) => {
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};

beforeAll(async () => {
  s = await startTestServer();
  const f = '/api/admin/projects/default/features';
  const seg = ok(
    await s.request('POST', '/api/admin/segments', {
      body: { name: 'beta-users', constraints: [{ contextName: 'tier', operator: 'IN', values: ['beta'] }] },
    }),
  );
  ok(await s.request('POST', f, { body: { name: 'rollout' } }));
  ok(
    await s.request('POST', `${f}/rollout/environments/development/strategies`, {
      body: {
        name: 'flexibleRollout',
        parameters: { rollout: '40', stickiness: 'userId', groupId: 'rollout' },
      },
    }),
  );
  ok(await s.request('POST', `${f}/rollout/environments/development/on`));
  ok(await s.request('POST', f, { body: { name: 'segmented' } }));
  ok(
    await s.request('POST', `${f}/segmented/environments/development/strategies`, {
      body: {
        name: 'default',
        segments: [seg.id],
        constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.0.0' }],
      },
    }),
  );
  ok(await s.request('POST', `${f}/segmented/environments/development/on`));
  ok(
    await s.request('PUT', `${f}/segmented/environments/development/variants`, {
      body: [
        { name: 'blue', weight: 0, payload: { type: 'string', value: 'b' } },
        { name: 'red', weight: 0, overrides: [{ contextName: 'userId', values: ['u3'] }] },
      ],
    }),
  );
  ok(await s.request('POST', f, { body: { name: 'child' } }));
  ok(await s.request('POST', `${f}/child/dependencies`, { body: { feature: 'rollout' } }));
  ok(await s.request('POST', `${f}/child/environments/development/on`));
  ok(await s.request('POST', f, { body: { name: 'disabled-strategy' } }));
  ok(
    await s.request('POST', `${f}/disabled-strategy/environments/development/strategies`, {
      body: { name: 'default', disabled: true },
    }),
  );
  ok(await s.request('POST', `${f}/disabled-strategy/environments/development/on`));

  const token = await s.token('client');
  sdk = new Unleash({
    url: `${s.base}/api/`,
    appName: 'sdk-compat',
    customHeaders: { Authorization: token },
    refreshInterval: 60_000,
    metricsInterval: 60_000,
    storageProvider: new InMemStorageProvider(),
  });
  sdk.on('error', () => {});
  await once(sdk, 'synchronized');
});

afterAll(async () => {
  sdk?.destroy();
  await s?.close();
});

describe('the official unleash-client SDK', () => {
  it('receives every feature and agrees with Flagstaff on 200 contexts', async () => {
    expect(
      sdk
        .getFeatureToggleDefinitions()
        .map((d) => d.name)
        .sort(),
    ).toEqual(['child', 'disabled-strategy', 'rollout', 'segmented']);
    const evaluator = await s.flagstaff.client.evaluator('development');
    let enabledSomewhere = 0;
    for (let i = 0; i < 200; i++) {
      const ctx = {
        userId: `u${i}`,
        appVersion: i % 3 === 0 ? '2.1.0' : '1.9.0',
        properties: { tier: i % 2 === 0 ? 'beta' : 'ga' },
      };
      for (const name of ['rollout', 'segmented', 'child', 'disabled-strategy']) {
        const ours = evaluator.isEnabled(name, ctx);
        expect(sdk.isEnabled(name, ctx), `${name} for ${JSON.stringify(ctx)}`).toBe(ours);
        if (ours) enabledSomewhere++;
        const theirs = sdk.getVariant(name, ctx);
        expect({ name: theirs.name, enabled: theirs.enabled }).toEqual({
          name: evaluator.getVariant(name, ctx).name,
          enabled: evaluator.getVariant(name, ctx).enabled,
        });
      }
    }
    // The cases are not trivially all-off or all-on.
    expect(enabledSomewhere).toBeGreaterThan(100);
    expect(enabledSomewhere).toBeLessThan(700);
  });

  it('leaves disabled strategies out, so the SDK sees that feature as off', () => {
    expect(sdk.getFeatureToggleDefinition('disabled-strategy')?.strategies).toEqual([]);
    expect(sdk.isEnabled('disabled-strategy', { userId: 'x' })).toBe(false);
  });

  it('gets 304 with the ETag it was given, and a fresh body after a change', async () => {
    const token = await s.token('client');
    const first = await s.request('GET', '/api/client/features', { token });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(
      (await s.request('GET', '/api/client/features', { token, headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    ok(await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'late-arrival' } }));
    const after = await s.request('GET', '/api/client/features', {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(after.status).toBe(200);
    expect(after.body.features.map((f: { name: string }) => f.name)).toContain('late-arrival');
  });
});
