import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, type Flagstaff, SYSTEM } from '@flagstaff/core';
import {
  describeSharedAddonDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@flagstaff/core/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-addon-delivery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `store-${files++}.db`);

// One SQLite file opened twice stands for two server processes on one data directory.
describeSharedAddonDelivery('sqlite', async () => {
  const filename = freshFile();
  return [await sqliteStore({ filename }), await sqliteStore({ filename })] as const;
});

const quickRetries = { retryBaseDelayMs: 20, retryMaxDelayMs: 200, pollMs: 200 };

describe('durable addon delivery on a SQLite file', () => {
  const open: Flagstaff[] = [];
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const f of open.splice(0)) await f.close();
    for (const r of receivers.splice(0)) await r.close();
  });
  const start = async (filename: string) => {
    const flagstaff = await createFlagstaff({
      store: await sqliteStore({ filename }),
      addonDelivery: quickRetries,
      // Receivers listen on loopback, which the outbound policy refuses unless allow-listed.
      webhookAllowedHosts: ['127.0.0.1'],
    });
    open.push(flagstaff);
    return flagstaff;
  };
  const receiver = async (options?: { delayMs?: number }) => {
    const r = await startWebhookReceiver(options);
    receivers.push(r);
    return r;
  };
  const hook = (flagstaff: Flagstaff, url: string) =>
    flagstaff.addons.create(SYSTEM, {
      provider: 'webhook',
      parameters: { url },
      events: ['feature-created'],
    });
  const logged = async (flagstaff: Flagstaff) =>
    (await flagstaff.store.events.search({ type: 'feature-created', ascending: true })).map((e) => e.id);

  it('a receiver that refuses for a while gets all 200 events, in log order, none twice', async () => {
    const flagstaff = await start(freshFile());
    const r = await receiver();
    const downUntil = Date.now() + 1_500;
    r.answerWith(() => (Date.now() < downUntil ? 503 : 200));
    await hook(flagstaff, r.url);
    for (let i = 0; i < 200; i++) await flagstaff.features.create(SYSTEM, 'default', { name: `f-${i}` });
    await vi.waitFor(() => expect(r.delivered()).toHaveLength(200), { timeout: 20_000, interval: 50 });
    expect(r.received.some((x) => x.status === 503)).toBe(true);
    expect(r.delivered().map((x) => x.eventId)).toEqual(await logged(flagstaff));
  });

  it('a restart in the middle of a backlog loses nothing and repeats nothing', async () => {
    const filename = freshFile();
    const first = await start(filename);
    // 20 ms per answer: the receiver falls behind the writes, so a backlog builds up.
    const r = await receiver({ delayMs: 20 });
    await hook(first, r.url);
    for (let i = 0; i < 300; i++) await first.features.create(SYSTEM, 'default', { name: `b-${i}` });
    const ids = await logged(first);
    await vi.waitFor(() => expect(r.delivered().length).toBeGreaterThan(20), {
      timeout: 10_000,
      interval: 5,
    });
    // The process stops with part of the backlog still queued (the delivery under way finishes).
    await first.close();
    open.splice(open.indexOf(first), 1);
    const before = r.delivered().length;
    expect(before).toBeLessThan(300);
    const second = await start(filename);
    await second.addons.deliverPending();
    await vi.waitFor(() => expect(r.delivered()).toHaveLength(300), { timeout: 20_000, interval: 50 });
    expect(r.delivered().map((x) => x.eventId)).toEqual(ids);
  });

  it('a slow receiver does not hold up another addon', async () => {
    const flagstaff = await start(freshFile());
    const slow = await receiver({ delayMs: 1_000 });
    const fast = await receiver();
    await hook(flagstaff, slow.url);
    await hook(flagstaff, fast.url);
    for (let i = 0; i < 20; i++) await flagstaff.features.create(SYSTEM, 'default', { name: `s-${i}` });
    await vi.waitFor(() => expect(fast.delivered()).toHaveLength(20), { timeout: 10_000, interval: 20 });
    // The slow one answers once a second: it is still working through its own queue.
    expect(slow.received.length).toBeLessThan(20);
    const [slowAddon] = (await flagstaff.addons.list(SYSTEM)).addons;
    expect(slowAddon?.delivery.pending).toBeGreaterThan(0);
  });
});
