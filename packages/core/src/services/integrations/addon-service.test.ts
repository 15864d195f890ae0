import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AddonInput } from '../../domain/addon.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { startReceiver, webhook } from './addon-test-receiver.js';

let flagstaff: Flagstaff;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  receiver = await startReceiver();
});
afterEach(async () => {
  await flagstaff.close();
  await receiver.close();
});

describe('addon configuration', () => {
  it('lists providers, including the generic webhook, in the GET /addons shape', async () => {
    const { addons, providers } = await flagstaff.addons.list(alice);
    expect(addons).toEqual([]);
    const hook = providers.find((p) => p.name === 'webhook');
    expect(hook?.parameters.map((p) => [p.name, p.required, p.sensitive])).toEqual([
      ['url', true, false],
      ['contentType', false, false],
      ['authorization', false, true],
      ['bodyTemplate', false, false],
      ['customHeaders', false, true],
    ]);
    expect(hook?.events).toContain('feature-environment-enabled');
    expect(flagstaff.addons.providers().map((p) => p.name)).toEqual(['webhook', 'slack', 'teams']);
  });

  it('refuses unknown providers, missing or non-http URLs and bad headers, naming the property', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...webhook({ url: receiver.url() }), provider: 'carrier-pigeon' }, '"provider"'],
      [webhook({}), '"parameters.url"'],
      [webhook({ url: 'ftp://example.com/x' }), '"parameters.url"'],
      [webhook({ url: receiver.url(), customHeaders: '{nope' }), '"parameters.customHeaders"'],
      [webhook({ url: receiver.url(), customHeaders: '{"X-N": 1}' }), '"parameters.customHeaders.X-N"'],
      [webhook({ url: receiver.url() }, { events: [] }), '"events"'],
      [webhook({ url: receiver.url() }, { events: ['feature-exploded'] }), '"events[0]"'],
    ];
    for (const [input, property] of cases)
      await expect(flagstaff.addons.create(alice, input as AddonInput)).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(property),
      });
    expect((await flagstaff.addons.list(alice)).addons).toEqual([]);
  });

  it('creates, masks, updates and deletes, keeping sensitive parameters out of events', async () => {
    const created = await flagstaff.addons.create(
      alice,
      webhook({ url: receiver.url(), authorization: 'Bearer s3cret' }, { description: 'CI hook' }),
    );
    expect(created).toMatchObject({
      provider: 'webhook',
      description: 'CI hook',
      enabled: true,
      parameters: { url: receiver.url(), authorization: '*****' },
      projects: [],
      environments: [],
    });
    // The signing secret is answered once, at creation.
    const { signingSecret, ...shown } = created;
    expect(signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await flagstaff.addons.get(alice, created.id)).toEqual(shown);
    expect(JSON.stringify(await flagstaff.events.search(alice, {}))).not.toContain(signingSecret);
    const updated = await flagstaff.addons.update(alice, created.id, {
      ...webhook({ url: receiver.url('/other'), authorization: '*****' }),
      enabled: false,
    });
    expect(updated).toMatchObject({
      enabled: false,
      description: 'CI hook',
      parameters: { authorization: '*****' },
    });
    expect((await flagstaff.store.addons.get(created.id))?.parameters['authorization']).toBe('Bearer s3cret');
    await expect(
      flagstaff.addons.update(alice, created.id, { ...webhook({ url: receiver.url() }), provider: 'slack' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"provider"') });
    await flagstaff.addons.delete(alice, created.id);
    await expect(flagstaff.addons.get(alice, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(flagstaff.addons.delete(alice, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const events = await flagstaff.store.events.search({ ascending: true });
    expect(events.map((e) => e.type)).toEqual([
      'addon-config-created',
      'addon-config-updated',
      'addon-config-deleted',
    ]);
    expect(events[0]?.data).toMatchObject({ id: created.id, parameters: { url: receiver.url() } });
    expect(JSON.stringify(events)).not.toContain('s3cret');
    expect(JSON.stringify(events)).not.toContain('authorization');
  });
});

describe('webhook delivery', () => {
  it('POSTs matching events as JSON with the configured headers, honouring the filters', async () => {
    await flagstaff.projects.create(alice, { id: 'other', name: 'Other' });
    await flagstaff.addons.create(
      alice,
      webhook({
        url: receiver.url(),
        authorization: 'Bearer s3cret',
        customHeaders: '{"X-Source": "flagstaff"}',
      }),
    );
    await flagstaff.addons.create(
      alice,
      webhook({ url: receiver.url('/other-only') }, { projects: ['other'] }),
    );
    await flagstaff.addons.create(alice, webhook({ url: receiver.url('/disabled') }, { enabled: false }));
    await flagstaff.features.create(alice, 'default', { name: 'checkout' });
    await flagstaff.addons.deliverPending();
    expect(receiver.received.map((r) => r.url)).toEqual(['/hook']);
    const [hit] = receiver.received;
    expect(hit?.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer s3cret',
      'x-source': 'flagstaff',
    });
    expect(JSON.parse(hit?.body ?? '')).toMatchObject({
      type: 'feature-created',
      featureName: 'checkout',
      project: 'default',
      createdBy: alice.actor.name,
    });
    await flagstaff.features.create(alice, 'other', { name: 'search' });
    await flagstaff.addons.deliverPending();
    expect(receiver.received.map((r) => r.url)).toEqual(['/hook', '/hook', '/other-only']);
  });

  it('renders a body template and a custom content type', async () => {
    await flagstaff.addons.create(
      alice,
      webhook({
        url: receiver.url(),
        contentType: 'text/plain',
        bodyTemplate: '{{event.createdBy}} created {{event.data.description}} ({{{event.type}}})',
      }),
    );
    await flagstaff.features.create(alice, 'default', { name: 'ab', description: 'a<b' });
    await flagstaff.addons.deliverPending();
    expect(receiver.received[0]?.headers['content-type']).toBe('text/plain');
    expect(receiver.received[0]?.body).toBe('alice@example.com created a&lt;b (feature-created)');
  });

  it('is triggered by appended events without being asked', async () => {
    await flagstaff.addons.create(alice, webhook({ url: receiver.url() }));
    await flagstaff.features.create(alice, 'default', { name: 'auto' });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 5_000, interval: 20 });
  });
});
