// The outbound policy over HTTP: what a webhook may reach, what the log says when it may not, and who
// may read addons and their deliveries.
import { startWebhookReceiver, type WebhookReceiver } from '@flagstaff/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let receiver: WebhookReceiver;
beforeEach(async () => {
  // No allow-list: the policy as a fresh install has it.
  s = await startTestServer({
    flagstaff: {
      webhookAllowedHosts: [],
      addonDelivery: { retryBaseDelayMs: 20, retryMaxDelayMs: 100, retryWindowMs: 60_000, pollMs: 60_000 },
    },
  });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await s.close();
  await receiver.close();
});

const port = (): string => new URL(receiver.url).port;
const create = (provider: string, url: string) =>
  s.request('POST', '/api/admin/addons', {
    body: { provider, parameters: { url }, events: ['feature-created'] },
  });
const feature = (name: string) =>
  s.request('POST', '/api/admin/projects/default/features', { body: { name } });

describe('the outbound policy for addons', () => {
  it('F6: a webhook to 127.0.0.1 is refused at creation, as are metadata, private, mapped and loopback-named destinations', async () => {
    const refused = [
      receiver.url,
      `http://localhost:${port()}/hook`,
      `http://[::1]:${port()}/hook`,
      `http://[::ffff:127.0.0.1]:${port()}/hook`,
      `http://2130706433:${port()}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
    ];
    for (const url of refused) {
      const res = await create('webhook', url);
      expect(res.status, url).toBe(400);
      expect(errorBody(res).message, url).toMatch(/"parameters.url" is blocked by the outbound policy: /);
    }
    // Slack and Teams post to a URL too: the same policy.
    for (const provider of ['slack', 'teams'])
      expect((await create(provider, 'http://169.254.169.254/hook')).status, provider).toBe(400);
    // A public literal is accepted (nothing is sent until an event matches).
    const ok = await create('webhook', 'http://203.0.113.10/hook');
    expect(ok.status, ok.text).toBe(200);
    const moved = await s.request('PUT', `/api/admin/addons/${ok.body.id}`, {
      body: { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-created'] },
    });
    expect(moved.status).toBe(400);
    expect(errorBody(moved).message).toContain('loopback');
    expect((await s.request('GET', '/api/admin/addons')).body.addons).toHaveLength(1);
  });

  it('F6: an addon stored before the policy is blocked at delivery, logged as such, and the receiver gets nothing', async () => {
    // As an upgrade finds it: saved when nothing was checked, pointing at a loopback name.
    const addon = await s.flagstaff.store.transaction((tx) =>
      tx.addons.insert({
        provider: 'webhook',
        description: null,
        enabled: true,
        parameters: { url: `http://localhost:${port()}/hook` },
        events: ['feature-created'],
        projects: [],
        environments: [],
        createdAt: new Date(Date.now() - 1000).toISOString(),
      }),
    );
    await feature('not-for-loopback');
    await vi.waitFor(
      async () => {
        const log = await s.request('GET', `/api/admin/addons/${addon.id}/events`);
        expect(log.body.integrationEvents[0]).toMatchObject({
          state: 'failed',
          details: {
            statusCode: null,
            error: expect.stringMatching(/^blocked by the outbound policy: .* is a loopback address$/),
          },
        });
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(receiver.received).toEqual([]);
  });

  it('F6: a redirect is a failed attempt and is not followed', async () => {
    await s.close();
    s = await startTestServer({
      flagstaff: {
        webhookAllowedHosts: ['127.0.0.1'],
        addonDelivery: { retryBaseDelayMs: 60_000, retryWindowMs: 3_600_000, pollMs: 60_000 },
      },
    });
    const target = await startWebhookReceiver();
    try {
      receiver.answerWith(() => 307);
      const { body } = await create('webhook', receiver.url);
      await feature('redirected');
      await vi.waitFor(
        async () =>
          expect((await s.request('GET', `/api/admin/addons/${body.id}`)).body.delivery).toMatchObject({
            state: 'retrying',
            lastError: 'HTTP 307 (redirects are not followed)',
          }),
        { timeout: 5_000, interval: 50 },
      );
      expect(receiver.received).toHaveLength(1);
      expect(target.received).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('F6: addons, their delivery logs and queues are for Admins only; Viewers and Editors get 403', async () => {
    const { body } = await create('webhook', 'http://203.0.113.10/hook');
    const paths = [
      '/api/admin/addons',
      `/api/admin/addons/${body.id}`,
      `/api/admin/addons/${body.id}/events`,
      `/api/admin/addons/${body.id}/deliveries`,
      `/api/admin/addons/${body.id}/deliveries?state=parked`,
    ];
    for (const role of ['Viewer', 'Editor'] as const) {
      const as = { token: null, headers: { 'x-test-user': String(await s.user(role)) } };
      for (const path of paths) {
        const res = await s.request('GET', path, as);
        expect(res.status, `${role} ${path}`).toBe(403);
        expect(errorBody(res).name).toBe('NoAccessError');
      }
    }
    const admin = { token: null, headers: { 'x-test-user': String(await s.user('Admin')) } };
    for (const path of paths) expect((await s.request('GET', path, admin)).status, path).toBe(200);
  });
});
