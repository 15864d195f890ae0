import { createHmac } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '@flagstaff/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let receiver: WebhookReceiver;
beforeEach(async () => {
  s = await startTestServer({
    flagstaff: {
      addonDelivery: { retryBaseDelayMs: 20, retryMaxDelayMs: 100, retryWindowMs: 400, pollMs: 60_000 },
    },
  });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await s.close();
  await receiver.close();
});

async function createWebhook(): Promise<{ id: number; signingSecret: string }> {
  const res = await s.request('POST', '/api/admin/addons', {
    body: { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-created'] },
  });
  expect(res.status).toBe(200);
  return res.body;
}

const feature = (name: string) =>
  s.request('POST', '/api/admin/projects/default/features', { body: { name } });

/** Checks a `Flagstaff-Signature` header the way the docs tell receivers to. */
function verifies(header: string | undefined, body: string, secret: string): boolean {
  const parts = (header ?? '').split(',');
  const timestamp = parts.find((p) => p.startsWith('t='))?.slice(2);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return parts.some((p) => p === `v1=${expected}`);
}

describe('addon deliveries over HTTP', () => {
  it('signs each webhook, keeps the idempotency key across retries, and logs every attempt', async () => {
    const { id, signingSecret } = await createWebhook();
    expect(signingSecret).toMatch(/^whsec_/);
    expect((await s.request('GET', `/api/admin/addons/${id}`)).body.signingSecret).toBeUndefined();
    receiver.answerWith(({ attempt }) => (attempt === 1 ? 503 : 200));
    await feature('signed');
    await vi.waitFor(() => expect(receiver.delivered()).toHaveLength(1), { timeout: 5_000 });
    const [first, second] = receiver.received;
    expect(first?.headers['idempotency-key']).toBe(`flagstaff-${id}-${first?.eventId}`);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    for (const r of receiver.received)
      expect(verifies(String(r.headers['flagstaff-signature']), r.body, signingSecret)).toBe(true);
    expect(verifies(String(first?.headers['flagstaff-signature']), `${first?.body} `, signingSecret)).toBe(
      false,
    );

    const log = await s.request('GET', `/api/admin/addons/${id}/events`);
    expect(log.status).toBe(200);
    expect(log.body.integrationEvents).toEqual([
      expect.objectContaining({
        integrationId: id,
        state: 'success',
        event: expect.objectContaining({ type: 'feature-created', featureName: 'signed' }),
        details: expect.objectContaining({ attempt: 2, statusCode: 200, error: null }),
      }),
      expect.objectContaining({
        state: 'failed',
        stateDetails: expect.stringContaining('HTTP 503'),
        details: expect.objectContaining({ attempt: 1, statusCode: 503, error: 'HTTP 503' }),
      }),
    ]);
    const paged = await s.request('GET', `/api/admin/addons/${id}/events?limit=1&offset=1`);
    expect(
      paged.body.integrationEvents.map((e: { details: { attempt: number } }) => e.details.attempt),
    ).toEqual([1]);
    const bad = await s.request('GET', `/api/admin/addons/${id}/events?limit=0`);
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('limit');
    expect((await s.request('GET', '/api/admin/addons/999/events')).status).toBe(404);
  });

  it('a rotated secret signs beside the new one until the overlap ends', async () => {
    const { id, signingSecret: old } = await createWebhook();
    const rotated = await s.request('POST', `/api/admin/addons/${id}/signing-secret`);
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.signingSecret;
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.body.previousValidUntil)).toBeGreaterThan(Date.now());
    await feature('after-rotation');
    await vi.waitFor(() => expect(receiver.delivered()).toHaveLength(1), { timeout: 5_000 });
    const [r] = receiver.received;
    const header = String(r?.headers['flagstaff-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifies(header, r?.body ?? '', fresh)).toBe(true);
    expect(verifies(header, r?.body ?? '', old)).toBe(true);
    const events = await s.request('GET', '/api/admin/events?type=addon-config-updated');
    expect(events.text).not.toContain(fresh);
    expect(events.text).not.toContain(old);
  });

  it('parks what a dead receiver never takes, shows it, and replays one or all once it is back', async () => {
    const { id } = await createWebhook();
    receiver.answerWith(() => 500);
    for (const name of ['p1', 'p2', 'p3']) await feature(name);
    await vi.waitFor(
      async () => expect((await s.request('GET', `/api/admin/addons/${id}`)).body.delivery.parked).toBe(3),
      { timeout: 10_000, interval: 50 },
    );
    const listed = await s.request('GET', '/api/admin/addons');
    expect(listed.body.addons[0].delivery).toEqual({
      state: 'parked',
      pending: 0,
      parked: 3,
      retryingSince: null,
      lastError: null,
    });
    const parked = await s.request('GET', `/api/admin/addons/${id}/deliveries?state=parked`);
    expect(
      parked.body.deliveries.map((d: { event: { featureName: string } }) => d.event.featureName),
    ).toEqual(['p1', 'p2', 'p3']);
    expect(parked.body.deliveries[0]).toMatchObject({
      state: 'parked',
      lastError: 'HTTP 500',
      nextAttemptAt: null,
    });
    receiver.answerWith(() => 200);
    const one = parked.body.deliveries[1].eventId;
    expect((await s.request('POST', `/api/admin/addons/${id}/deliveries/${one}/replay`)).body).toEqual({
      replayed: 1,
    });
    await vi.waitFor(() => expect(receiver.delivered().map((r) => r.featureName)).toEqual(['p2']));
    const again = await s.request('POST', `/api/admin/addons/${id}/deliveries/${one}/replay`);
    expect(again.status).toBe(404);
    expect(errorBody(again).message).toContain(`Event ${one} is not parked`);
    expect((await s.request('POST', `/api/admin/addons/${id}/deliveries/replay`)).body).toEqual({
      replayed: 2,
    });
    await vi.waitFor(() =>
      expect(receiver.delivered().map((r) => r.featureName)).toEqual(['p2', 'p1', 'p3']),
    );
    expect((await s.request('GET', `/api/admin/addons/${id}`)).body.delivery).toMatchObject({
      state: 'healthy',
      parked: 0,
    });
    expect((await s.request('GET', `/api/admin/addons/${id}/deliveries?state=stuck`)).status).toBe(400);
  });

  it('shows a retrying addon with the time it started failing and its last error', async () => {
    const { id } = await createWebhook();
    await s.close();
    s = await startTestServer({
      flagstaff: { addonDelivery: { retryBaseDelayMs: 60_000, retryWindowMs: 3_600_000, pollMs: 60_000 } },
    });
    const created = await createWebhook();
    expect(created.id).toBe(id);
    receiver.answerWith(() => 503);
    await feature('stuck');
    await vi.waitFor(
      async () =>
        expect((await s.request('GET', `/api/admin/addons/${id}`)).body.delivery.state).toBe('retrying'),
      { timeout: 5_000, interval: 50 },
    );
    const { delivery } = (await s.request('GET', `/api/admin/addons/${id}`)).body;
    expect(delivery).toMatchObject({ pending: 1, parked: 0, lastError: 'HTTP 503' });
    expect(Date.parse(delivery.retryingSince)).toBeLessThanOrEqual(Date.now());
    const pending = await s.request('GET', `/api/admin/addons/${id}/deliveries`);
    expect(pending.body.deliveries).toEqual([
      expect.objectContaining({ state: 'pending', attempts: 1, lastError: 'HTTP 503' }),
    ]);
  });

  it('lets Viewers neither read the log (Admins only) nor replay or rotate; a client token gets 403', async () => {
    const { id } = await createWebhook();
    const viewer = String(await s.user('Viewer'));
    const as = { token: null, headers: { 'x-test-user': viewer } };
    expect((await s.request('GET', `/api/admin/addons/${id}/events`, as)).status).toBe(403);
    expect((await s.request('POST', `/api/admin/addons/${id}/deliveries/replay`, as)).status).toBe(403);
    expect((await s.request('POST', `/api/admin/addons/${id}/signing-secret`, as)).status).toBe(403);
    const client = await s.token('client');
    expect((await s.request('GET', `/api/admin/addons/${id}/events`, { token: client })).status).toBe(403);
  });

  it('refuses to rotate the secret of a provider that does not sign', async () => {
    const slack = await s.request('POST', '/api/admin/addons', {
      body: { provider: 'slack', parameters: { url: receiver.url }, events: ['feature-created'] },
    });
    expect(slack.body.signingSecret).toBeUndefined();
    const res = await s.request('POST', `/api/admin/addons/${slack.body.id}/signing-secret`);
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toContain('not signed');
  });
});
