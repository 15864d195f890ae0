// The official Unleash Node SDK (unleash-client 6.12) in its three fetching modes against a real
// server: full polling, delta polling and streaming. Each must agree with the playground on a
// generated configuration and pick up a change made through the admin API.
import { once } from 'node:events';
import { createMemoryStore, type EvaluationContext } from '@flagstaff/core';
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from './testing/harness.js';
import { createNodeSdk, type SdkTestServer, startSdkServer } from './testing/sdk-server.js';
import { generateSeedableFlagSet, seedFlagSet } from './testing/seed-flag-set.js';

const FEATURES = 200;
const CONTEXTS = 20;
const { payload, contexts } = generateSeedableFlagSet({ flags: FEATURES, contexts: CONTEXTS, seed: 7 });

/** The SDK's context type wants a Date for currentTime. */
const sdkContexts = contexts.map(({ currentTime, ...rest }) => ({
  ...rest,
  ...(currentTime === undefined ? {} : { currentTime: new Date(currentTime) }),
}));

type Mode = 'full' | 'delta' | 'streaming';
const modes: Record<Mode, ConstructorParameters<typeof Unleash>[0]['experimentalMode']> = {
  full: { type: 'polling', format: 'full' },
  delta: { type: 'polling', format: 'delta' },
  streaming: { type: 'streaming' },
};

let s: SdkTestServer;
let clientToken: string;
/** feature → context index → [enabled, variant name] as the playground answers. */
const expected = new Map<string, [boolean, string][]>();

async function playground(context: EvaluationContext) {
  const res = await s.request('POST', '/api/admin/playground', {
    body: { environment: 'development', projects: '*', context: { appName: 'sdk-modes', ...context } },
  });
  if (res.status !== 200) throw new Error(`playground ${res.status} ${res.text}`);
  return res.body.features as { name: string; isEnabled: boolean; variant: { name: string } }[];
}

function startSdk(mode: Mode, refreshInterval = 60_000): Unleash {
  return createNodeSdk({
    base: s.base,
    token: clientToken,
    appName: `sdk-${mode}`,
    mode: modes[mode],
    refreshInterval,
  });
}

/** Resolves once `check` holds, polling every few ms; the elapsed milliseconds. */
async function until(check: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - started;
}

describe.skipIf(testAdapter() !== 'node')('unleash-client in every fetching mode', () => {
  beforeAll(async () => {
    s = await startSdkServer(createMemoryStore());
    await seedFlagSet(s.request, payload);
    clientToken = await s.token('client');
    for (const [i, context] of contexts.entries()) {
      for (const f of await playground(context)) {
        const list = expected.get(f.name) ?? [];
        list[i] = [f.isEnabled, f.variant.name];
        expected.set(f.name, list);
      }
    }
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  for (const mode of ['full', 'delta', 'streaming'] as const) {
    it(`${mode}: agrees with the playground on ${FEATURES} features × ${CONTEXTS} contexts, then sees a change`, async () => {
      const pollsBefore = (s.hits.get('/api/client/features') ?? 0) + (s.hits.get('/api/client/delta') ?? 0);
      const sdk = startSdk(mode, mode === 'streaming' ? 60_000 : 100);
      try {
        await once(sdk, 'synchronized');
        // Earlier modes' late features are there too.
        expect(sdk.getFeatureToggleDefinitions().length).toBeGreaterThanOrEqual(FEATURES);
        let on = 0;
        for (const [name, answers] of expected) {
          for (const [i, [enabled, variant]] of answers.entries()) {
            const context = sdkContexts[i]!;
            expect(sdk.isEnabled(name, context), `${name} #${i}`).toBe(enabled);
            expect(sdk.getVariant(name, context).name, `${name} #${i} variant`).toBe(variant);
            if (enabled) on++;
          }
        }
        // Neither trivially all off nor all on.
        expect(on).toBeGreaterThan(FEATURES);
        expect(on).toBeLessThan(FEATURES * CONTEXTS - FEATURES);

        // A feature that is on for everyone, created and switched on through the admin API.
        const name = `late-${mode}`;
        const base = '/api/admin/projects/default/features';
        expect((await s.request('POST', base, { body: { name } })).status).toBeLessThan(300);
        expect((await s.request('POST', `${base}/${name}/environments/development/on`)).status).toBe(200);
        await until(() => sdk.isEnabled(name, { userId: 'anyone' }), 5_000);
        await s.request('POST', `${base}/${name}/environments/development/off`);
        await until(() => !sdk.isEnabled(name, { userId: 'anyone' }), 5_000);

        const polls = (s.hits.get('/api/client/features') ?? 0) + (s.hits.get('/api/client/delta') ?? 0);
        // Streaming never fell back to polling (the SDK does so silently when a server misbehaves).
        if (mode === 'streaming') expect(polls).toBe(pollsBefore);
        if (mode === 'delta') expect(s.hits.get('/api/client/delta') ?? 0).toBeGreaterThan(1);
      } finally {
        sdk.destroy();
      }
    });
  }

  it('streaming: a change reaches the SDK promptly (median of 5 well under a second)', async () => {
    const sdk = startSdk('streaming');
    try {
      await once(sdk, 'synchronized');
      const times: number[] = [];
      const base = '/api/admin/projects/default/features';
      await s.request('POST', base, { body: { name: 'prompt' } });
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await s.request('POST', `${base}/prompt/environments/development/${i % 2 === 0 ? 'on' : 'off'}`);
        await until(() => sdk.isEnabled('prompt', { userId: 'u' }) === (i % 2 === 0), 5_000);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      // Not a timing assertion (the bench measures): a generous bound that only a fallback to
      // polling or a stuck stream would miss.
      expect(times[2]).toBeLessThan(1_000);
    } finally {
      sdk.destroy();
    }
  });
});
