import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, type Flagstaff } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin, createApp } from './app.js';

let dir: string;
let flagstaff: Flagstaff;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-embedded-'));
  flagstaff = await createFlagstaff({ store: await sqliteStore({ filename: join(dir, 'flags.db') }) });
  await addAdmin(flagstaff, 'owner@shop.example');
  server = createApp(flagstaff).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await flagstaff.close();
  rmSync(dir, { recursive: true, force: true });
});

const asOwner = (method: string, path: string, body?: unknown) =>
  fetch(`${base}/flags${path}`, {
    method,
    headers: { 'x-session-user': 'owner@shop.example', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('an Express app embedding Flagstaff', () => {
  it("keeps its own routes and refuses the flag API to callers it doesn't know", async () => {
    expect((await fetch(`${base}/checkout`)).status).toBe(200);
    const anonymous = await fetch(`${base}/flags/api/admin/projects`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { name: string }).name).toBe('AuthenticationRequired');
  });

  it("lets the app's own users manage flags under /flags, and its routes see the change at once", async () => {
    const checkout = async (userId: string) =>
      (await fetch(`${base}/checkout`, { headers: { 'x-user-id': userId } })).json();
    expect(await checkout('u1')).toEqual({ flow: 'classic', button: 'default' });

    const f = '/api/admin/projects/default/features';
    expect((await asOwner('POST', f, { name: 'new-checkout' })).status).toBe(200);
    expect(
      (
        await asOwner('POST', `${f}/new-checkout/environments/production/strategies`, {
          name: 'userWithId',
          parameters: { userIds: 'u1,u2' },
        })
      ).status,
    ).toBe(200);
    expect((await asOwner('POST', `${f}/new-checkout/environments/production/on`)).status).toBe(200);
    expect((await asOwner('POST', f, { name: 'checkout-button' })).status).toBe(200);
    expect(
      (
        await asOwner('PUT', `${f}/checkout-button/environments/production/variants`, [
          { name: 'green', weight: 1000 },
        ])
      ).status,
    ).toBe(200);
    expect((await asOwner('POST', `${f}/checkout-button/environments/production/on`)).status).toBe(200);

    expect(await checkout('u1')).toEqual({ flow: 'new', button: 'green' });
    expect(await checkout('u3')).toEqual({ flow: 'classic', button: 'green' });

    // The change is in the event log, written by the app's user.
    const events = (await (await asOwner('GET', '/api/admin/events/new-checkout')).json()) as {
      events: { createdBy: string }[];
    };
    expect(events.events.map((e: { createdBy: string }) => e.createdBy)).toContain('owner@shop.example');
  });
});
