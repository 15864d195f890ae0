// The official OpenFeature OFREP providers against /ofrep/v1 on a real server: the server provider
// evaluates flag by flag, the web provider in bulk (with the event stream); both must agree with the
// playground for a generated flag set. Then the protocol's edges: 304, 404, 400s, 401/403.
import type { EvaluationContext } from '@flagstaff/core';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { OpenFeature as ServerFeatures } from '@openfeature/server-sdk';
import { ProviderEvents, OpenFeature as WebFeatures } from '@openfeature/web-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness.js';
import { generateSeedableFlagSet, seedFlagSet } from './testing/seed-flag-set.js';

// The web provider runs in browsers; Node 20 has fetch but no EventSource. Imported by a computed
// name: under the `source` condition tsc would type-check eventsource-parser's own .ts sources.
const polyfill: string = 'eventsource';
const { EventSource } = (await import(polyfill)) as { EventSource: unknown };
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const { payload, contexts } = generateSeedableFlagSet({ flags: 40, contexts: 8, seed: 23 });

/** A generated context as an OpenFeature evaluation context (userId as the targeting key). */
const ofContext = (c: EvaluationContext): Record<string, string> => {
  const out: Record<string, string> = {};
  if (c.userId !== undefined) out.targetingKey = c.userId;
  for (const name of ['sessionId', 'remoteAddress', 'appName'] as const)
    if (typeof c[name] === 'string') out[name] = c[name];
  if (c.currentTime !== undefined) out.currentTime = String(c.currentTime);
  for (const [name, value] of Object.entries(c.properties ?? {}))
    if (typeof value === 'string') out[name] = value;
  return out;
};

/** The same context as the playground takes it. */
const playgroundContext = (c: EvaluationContext) => {
  const { targetingKey, sessionId, remoteAddress, appName, currentTime, ...properties } = ofContext(c);
  return { userId: targetingKey, sessionId, remoteAddress, appName, currentTime, properties };
};

type Explained = { name: string; isEnabled: boolean; variant: { name: string; enabled: boolean } };

let s: TestServer;
let client: string;
const playground = new Map<number, Explained[]>();

beforeAll(async () => {
  s = await startTestServer();
  await seedFlagSet(s.request, payload);
  client = await s.token('client');
  for (const [i, c] of contexts.entries()) {
    const res = await s.request('POST', '/api/admin/playground', {
      body: { environment: 'development', projects: '*', context: playgroundContext(c) },
    });
    expect(res.status).toBe(200);
    playground.set(i, res.body.features);
  }
}, 120_000);

afterAll(async () => {
  await ServerFeatures.close();
  await WebFeatures.close();
  await s?.close();
});

describe('official OFREP providers', () => {
  it('the server provider agrees with the playground, flag by flag', async () => {
    await ServerFeatures.setProviderAndWait(
      new OFREPProvider({ baseUrl: s.base, headers: [['Authorization', `Bearer ${client}`]] }),
    );
    const features = ServerFeatures.getClient();
    let on = 0;
    for (const [i, c] of contexts.entries())
      for (const f of playground.get(i)!) {
        const details = await features.getBooleanDetails(f.name, !f.isEnabled, ofContext(c));
        expect([f.name, details.errorCode, details.value]).toEqual([f.name, undefined, f.isEnabled]);
        const variant = f.isEnabled && f.variant.enabled ? f.variant.name : undefined;
        expect([f.name, details.variant]).toEqual([f.name, variant]);
        if (f.isEnabled) on++;
      }
    expect(on).toBeGreaterThan(0);
    const missing = await features.getBooleanDetails('no-such-flag', true, { targetingKey: 'u' });
    expect([missing.value, missing.errorCode]).toEqual([true, 'FLAG_NOT_FOUND']);
  }, 60_000);

  it('the web provider agrees with the playground in bulk and refetches on a change', async () => {
    const frontend = await s.token('frontend');
    const provider = new OFREPWebProvider({
      baseUrl: s.base,
      headers: [['X-API-Key', frontend]],
      pollInterval: 0,
      cacheMode: 'disabled',
    });
    await WebFeatures.setContext(ofContext(contexts[0]!));
    await WebFeatures.setProviderAndWait(provider);
    const features = WebFeatures.getClient();
    for (const [i, c] of contexts.entries()) {
      await WebFeatures.setContext(ofContext(c));
      for (const f of playground.get(i)!) {
        const details = features.getBooleanDetails(f.name, !f.isEnabled);
        expect([f.name, details.errorCode, details.value]).toEqual([f.name, undefined, f.isEnabled]);
      }
    }
    // A change in the token's scope reaches the provider through the event stream (no polling).
    const flag = payload.features.find((f) => f.enabled && (f.project ?? 'default') === 'default')!;
    const changed = new Promise<void>((resolve) =>
      features.addHandler(ProviderEvents.ConfigurationChanged, () => resolve()),
    );
    const off = await s.request(
      'POST',
      `/api/admin/projects/default/features/${flag.name}/environments/development/off`,
    );
    expect(off.status).toBe(200);
    await changed;
    expect(features.getBooleanDetails(flag.name, true).value).toBe(false);
  }, 60_000);
});

/** A server with a few plain flags: no random stickiness anywhere, so bulk answers get ETags. */
let e: TestServer;
let token: string;
const post = (path: string, body: unknown, auth: string | null = token, headers = {}) =>
  e.request('POST', path, { body, token: auth, headers });

async function flag(project: string, name: string, variants: unknown[] = []): Promise<void> {
  const at = `/api/admin/projects/${project}/features/${name}/environments/development`;
  for (const [path, body] of [
    [`/api/admin/projects/${project}/features`, { name }],
    [`${at}/strategies`, { name: 'default', variants }],
    [`${at}/on`, undefined],
  ] as const) {
    const res = await e.request('POST', path, { body });
    if (res.status >= 300) throw new Error(`${path} → ${res.status} ${res.text}`);
  }
}

beforeAll(async () => {
  e = await startTestServer();
  await e.request('POST', '/api/admin/projects', { body: { id: 'other', name: 'other' } });
  await e.request('POST', '/api/admin/projects/other/environments', { body: { environment: 'development' } });
  await flag('default', 'plain-on');
  await flag('default', 'ofrep-typed', [
    {
      name: 'blue',
      weight: 1000,
      stickiness: 'default',
      weightType: 'variable',
      payload: { type: 'json', value: '{"n":1}' },
    },
  ]);
  await flag('other', 'other-flag');
  token = await e.token('client');
}, 60_000);

afterAll(() => e?.close());

describe('OFREP protocol edges', () => {
  it('bulk answers carry an ETag, the event stream, and 304 on If-None-Match', async () => {
    const context = { targetingKey: 'user-7', country: 'NO' };
    const first = await post('/ofrep/v1/evaluate/flags', { context });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.body.flags.length).toBe(3);
    expect(first.body.eventStreams).toEqual([
      {
        type: 'sse',
        endpoint: { requestUri: expect.stringMatching(/\/ofrep\/v1\/event-stream\?ticket=/) },
        inactivityDelaySec: 120,
      },
    ]);
    const again = await post('/ofrep/v1/evaluate/flags', { context }, token, { 'if-none-match': etag! });
    expect([again.status, again.text]).toEqual([304, '']);
    const other = await post(
      '/ofrep/v1/evaluate/flags',
      { context: { ...context, targetingKey: 'user-8' } },
      token,
      {
        'if-none-match': etag!,
      },
    );
    expect(other.status).toBe(200);
  });

  it('an unknown flag is a 404 FLAG_NOT_FOUND with its key', async () => {
    const res = await post('/ofrep/v1/evaluate/flags/no-such-flag', { context: { targetingKey: 'u' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ key: 'no-such-flag', errorCode: 'FLAG_NOT_FOUND' });
  });

  it('refuses bad requests with PARSE_ERROR and INVALID_CONTEXT', async () => {
    const name = 'plain-on';
    const malformed = await e.request('POST', `/ofrep/v1/evaluate/flags/${name}`, {
      token,
      raw: '{"context": {',
      contentType: 'application/json',
    });
    expect([malformed.status, malformed.body.errorCode, malformed.body.key]).toEqual([
      400,
      'PARSE_ERROR',
      name,
    ]);
    for (const body of [{ context: 'x' }, { context: [1] }, { context: { targetingKey: 42 } }, [1]]) {
      const single = await post(`/ofrep/v1/evaluate/flags/${name}`, body);
      expect([single.status, single.body.errorCode]).toEqual([400, 'INVALID_CONTEXT']);
      const bulk = await post('/ofrep/v1/evaluate/flags', body);
      expect([bulk.status, bulk.body.errorCode, bulk.body.errorDetails]).toEqual([
        400,
        'INVALID_CONTEXT',
        expect.any(String),
      ]);
    }
  });

  it('takes client and frontend tokens in any of the three headers; others get 401 or 403', async () => {
    const body = { context: { targetingKey: 'u' } };
    const frontend = await e.token('frontend');
    for (const headers of [
      { authorization: `Bearer ${token}` },
      { authorization: frontend },
      { 'x-api-key': token },
    ])
      expect((await post('/ofrep/v1/evaluate/flags', body, null, headers)).status).toBe(200);
    expect((await post('/ofrep/v1/evaluate/flags', body, null)).status).toBe(401);
    expect((await post('/ofrep/v1/evaluate/flags', body, 'default:development.nope')).status).toBe(401);
    expect((await post('/ofrep/v1/evaluate/flags', body, e.adminToken)).status).toBe(403);
    const stream = await fetch(`${e.base}/ofrep/v1/event-stream?ticket=forged.abc`);
    expect(stream.status).toBe(401);
  });

  it('a token scoped to a project sees only its flags', async () => {
    const scoped = await e.token('client', { tokenName: 'scoped', projects: ['other'] });
    const res = await post('/ofrep/v1/evaluate/flags', { context: {} }, scoped);
    expect(res.body.flags.map((f: { key: string }) => f.key)).toEqual(['other-flag']);
    expect((await post('/ofrep/v1/evaluate/flags/plain-on', { context: {} }, scoped)).status).toBe(404);
  });

  it('gives variant payloads as typed values when asked with the values header', async () => {
    const plain = await post('/ofrep/v1/evaluate/flags/ofrep-typed', { context: { targetingKey: 'u' } });
    expect(plain.body).toMatchObject({
      value: true,
      variant: 'blue',
      metadata: { payloadType: 'json', payload: '{"n":1}' },
    });
    const typed = await post(
      '/ofrep/v1/evaluate/flags/ofrep-typed',
      { context: { targetingKey: 'u' } },
      token,
      {
        'x-flagstaff-ofrep-values': 'payload',
      },
    );
    expect(typed.body).toMatchObject({ value: { n: 1 }, variant: 'blue' });
  });
});

describe('OFREP event stream and rate limit', () => {
  it('sends refetchEvaluation for changes in the token scope only', async () => {
    const scoped = await e.token('client', { tokenName: 'stream-scoped', projects: ['other'] });
    const bulk = await post('/ofrep/v1/evaluate/flags', { context: {} }, scoped);
    const res = await fetch(new URL(bulk.body.eventStreams[0].endpoint.requestUri, e.base));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain(': connected');
    const toggle = (project: string, name: string, state: 'on' | 'off') =>
      e.request('POST', `/api/admin/projects/${project}/features/${name}/environments/development/${state}`);
    // Outside the scope: no event. Ordering, not timing, is what the read below checks.
    expect((await toggle('default', 'plain-on', 'off')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await toggle('other', 'other-flag', 'off')).status).toBe(200);
    const revision = await e.flagstaff.store.events.latestId();
    const { value } = await reader.read();
    expect(value).toContain(`id: ${revision}\n`);
    expect(value).toContain('data: {"type":"refetchEvaluation"');
    await reader.cancel();
    // A provider resuming from an older revision hears at once that it missed a change.
    const url = new URL(bulk.body.eventStreams[0].endpoint.requestUri, e.base);
    const resumed = await fetch(url, { headers: { 'last-event-id': String(revision - 1) } });
    const again = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await again.read()).value).toContain(`id: ${revision}\ndata: {"type":"refetchEvaluation"`);
    await again.cancel();
  });

  it('answers 429 with Retry-After to an address presenting too many unknown tokens', async () => {
    const limited = await startTestServer({ router: { authFailures: { maxFailures: 1 } } });
    try {
      const send = () =>
        limited.request('POST', '/ofrep/v1/evaluate/flags', {
          body: { context: {} },
          token: 'x:y.unknown-secret',
        });
      expect((await send()).status).toBe(401);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
