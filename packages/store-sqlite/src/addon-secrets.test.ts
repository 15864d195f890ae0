// Secret-bearing addon parameters at rest: what the SQLite file (and so any copy or backup of it)
// holds, read past Flagstaff with better-sqlite3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, type Flagstaff, SYSTEM } from '@flagstaff/core';
import { startWebhookReceiver, type WebhookReceiver } from '@flagstaff/core/testing';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-addon-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const SECRET_KEY = 'f10-server-key-0123456789abcdef';

const open: Flagstaff[] = [];
let receiver: WebhookReceiver;
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
  await receiver?.close();
});

async function start(filename: string, secretKey?: string): Promise<Flagstaff> {
  const flagstaff = await createFlagstaff({
    store: await sqliteStore({ filename }),
    // The receiver listens on loopback, which the outbound policy refuses unless allow-listed.
    webhookAllowedHosts: ['127.0.0.1'],
    addonDelivery: { pollMs: 60_000 },
    ...(secretKey && { secretKey }),
  });
  open.push(flagstaff);
  return flagstaff;
}

/** Every addon row's parameters as the file holds them. */
function rawParameters(filename: string): string {
  const db = new Database(filename, { readonly: true });
  try {
    const rows = db.prepare('SELECT parameters FROM addons').all() as { parameters: string }[];
    return rows.map((r) => r.parameters).join('\n');
  } finally {
    db.close();
  }
}

const webhook = (url: string) => ({
  provider: 'webhook',
  parameters: {
    url,
    authorization: 'Bearer tok-at-rest',
    customHeaders: '{"X-Api-Key": "key-at-rest"}',
  },
  events: ['feature-created' as const],
});

async function deliveredHeaders(flagstaff: Flagstaff, feature: string) {
  await flagstaff.features.create(SYSTEM, 'default', { name: feature });
  await flagstaff.addons.deliverPending();
  return receiver.delivered().find((r) => r.featureName === feature)?.headers;
}

describe('addon secrets in the SQLite file', () => {
  it('F10: the raw row holds neither the header value nor the authorization; answers mask them; delivery sends them', async () => {
    receiver = await startWebhookReceiver();
    const filename = join(dir, `store-${files++}.db`);
    const flagstaff = await start(filename, SECRET_KEY);
    const hook = await flagstaff.addons.create(SYSTEM, webhook(receiver.url));
    await flagstaff.addons.create(SYSTEM, {
      provider: 'slack',
      parameters: { url: 'https://hooks.slack.com/services/T0/B0/slack-at-rest' },
      events: ['feature-archived' as const],
    });
    const raw = rawParameters(filename);
    expect(raw).not.toMatch(/tok-at-rest|key-at-rest|slack-at-rest/);
    expect(raw).toContain(receiver.url);
    expect((await flagstaff.addons.get(SYSTEM, hook.id)).parameters).toMatchObject({
      authorization: '*****',
      customHeaders: '*****',
    });
    const headers = await deliveredHeaders(flagstaff, 'sealed-headers');
    expect(headers?.['x-api-key']).toBe('key-at-rest');
    expect(headers?.authorization).toBe('Bearer tok-at-rest');
  });

  it('F10: rows written in clear (before sealing) keep working and are sealed at the next start with a key', async () => {
    receiver = await startWebhookReceiver();
    const filename = join(dir, `store-${files++}.db`);
    const before = await start(filename);
    await before.addons.create(SYSTEM, webhook(receiver.url));
    await before.close();
    open.splice(0);
    expect(rawParameters(filename)).toContain('key-at-rest');

    const after = await start(filename, SECRET_KEY);
    expect(rawParameters(filename)).not.toMatch(/tok-at-rest|key-at-rest/);
    const headers = await deliveredHeaders(after, 'after-sealing');
    expect(headers?.['x-api-key']).toBe('key-at-rest');
    expect(headers?.authorization).toBe('Bearer tok-at-rest');
  });

  it('F10: under another server key a sealed header is not sent in clear or dropped: the event is parked, saving asks for it again', async () => {
    receiver = await startWebhookReceiver();
    const filename = join(dir, `store-${files++}.db`);
    const first = await start(filename, SECRET_KEY);
    const hook = await first.addons.create(SYSTEM, webhook(receiver.url));
    await first.close();
    open.splice(0);

    const other = await start(filename, 'another-server-key-0123456789abcdef');
    await other.features.create(SYSTEM, 'default', { name: 'wrong-key' });
    await other.addons.deliverPending();
    expect(receiver.received).toEqual([]);
    const { deliveries } = await other.addons.deliveries(SYSTEM, hook.id, { state: 'parked' });
    expect(deliveries[0]?.lastError).toMatch(/authorization, customHeaders could not be unsealed/);
    const masked = { url: receiver.url, authorization: '*****', customHeaders: '*****' };
    await expect(
      other.addons.update(SYSTEM, hook.id, { ...webhook(receiver.url), parameters: masked }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('another server key') });
  });
});
