// Secret-bearing addon parameters over HTTP: masked in every answer, kept when sent back masked, and
// still sent to the receiver.
import { startWebhookReceiver, type WebhookReceiver } from '@flagstaff/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let receiver: WebhookReceiver;
beforeEach(async () => {
  s = await startTestServer({
    flagstaff: { secretKey: 'a-server-key-of-enough-length-0123456789', addonDelivery: { pollMs: 60_000 } },
  });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await s.close();
  await receiver.close();
});

describe('secret addon parameters', () => {
  it('F10: custom headers and authorization are masked in answers, kept when sent back masked, and delivered', async () => {
    const created = await s.request('POST', '/api/admin/addons', {
      body: {
        provider: 'webhook',
        parameters: {
          url: receiver.url,
          authorization: 'Bearer tok-f10-secret',
          customHeaders: '{"X-Api-Key": "key-f10-secret"}',
        },
        events: ['feature-created'],
      },
    });
    expect(created.status, created.text).toBe(200);
    const masked = { url: receiver.url, authorization: '*****', customHeaders: '*****' };
    expect(created.body.parameters).toEqual(masked);
    const list = await s.request('GET', '/api/admin/addons');
    expect(list.body.addons[0].parameters).toEqual(masked);
    const one = await s.request('GET', `/api/admin/addons/${created.body.id}`);
    expect(one.body.parameters).toEqual(masked);
    for (const res of [created, list, one]) expect(res.text).not.toMatch(/f10-secret/);

    // The admin UI saves what it was shown: the masked values must keep the stored ones.
    const updated = await s.request('PUT', `/api/admin/addons/${created.body.id}`, {
      body: { provider: 'webhook', parameters: masked, events: ['feature-created'], enabled: true },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.parameters).toEqual(masked);

    await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'with-headers' } });
    await vi.waitFor(() => expect(receiver.delivered()).toHaveLength(1), { timeout: 5_000 });
    const [delivered] = receiver.delivered();
    expect(delivered?.headers['x-api-key']).toBe('key-f10-secret');
    expect(delivered?.headers.authorization).toBe('Bearer tok-f10-secret');

    const events = await s.request('GET', '/api/admin/events');
    expect(events.status).toBe(200);
    expect(events.text).toContain('addon-config-updated');
    expect(events.text).not.toMatch(/f10-secret|customHeaders/);
  });
});
