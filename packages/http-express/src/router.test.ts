import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, createMemoryStore, type Flagstaff, SYSTEM } from '@flagstaff/core';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { flagstaffRouter } from './router.js';

/** What only the Express adapter does; the whole HTTP suite also runs through it (vitest project `express`). */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(app: express.Express, flagstaff: Flagstaff): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    server.close();
    await flagstaff.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('flagstaffRouter', () => {
  it("unknownRoutes: 'next' leaves unmatched paths to the host app", async () => {
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const app = express();
    app.use(flagstaffRouter(flagstaff, { auth: { type: 'none' }, unknownRoutes: 'next' }));
    app.get('/host', (_req, res) => {
      res.send('host page');
    });
    const base = await serve(app, flagstaff);
    expect(await (await fetch(`${base}/host`)).text()).toBe('host page');
    expect((await fetch(`${base}/api/admin/projects`)).status).toBe(200);
  });

  it('accepts a body the host already parsed with express.json(), and hands authenticate the Express request', async () => {
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      (req as express.Request & { hostUser?: string }).hostUser = 'host-admin';
      next();
    });
    app.use(
      '/flags',
      flagstaffRouter(flagstaff, {
        authenticate: (req) => {
          const name = (req as express.Request & { hostUser?: string }).hostUser;
          return name ? { kind: 'anonymous-admin', name } : null;
        },
      }),
    );
    const base = await serve(app, flagstaff);
    const res = await fetch(`${base}/flags/api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pre-parsed' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('pre-parsed');
    const events = (await (await fetch(`${base}/flags/api/admin/events/pre-parsed`)).json()) as {
      events: { createdBy: string }[];
    };
    expect(events.events[0]?.createdBy).toBe('host-admin');
  });

  it('F15: a body the host parsed with express.json() is refused past the nesting limit', async () => {
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const app = express();
    app.use(express.json());
    app.use(flagstaffRouter(flagstaff, { auth: { type: 'none' } }));
    const base = await serve(app, flagstaff);
    const deep = `${'['.repeat(15_000)}${']'.repeat(15_000)}`;
    const res = await fetch(`${base}/api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"deep","description":${deep}}`,
    });
    expect(res.status, await res.clone().text()).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('levels deep');
  });

  it("uses Express's req.ip, so the host's trust proxy setting decides remoteAddress strategies", async () => {
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const actor = SYSTEM;
    await flagstaff.features.create(actor, 'default', { name: 'office' });
    const at = { project: 'default', feature: 'office', environment: 'development' };
    await flagstaff.strategies.add(actor, at, {
      name: 'remoteAddress',
      parameters: { IPs: '10.1.2.3' },
    });
    await flagstaff.featureEnvironments.setEnabled(actor, 'default', 'office', 'development', true);
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(flagstaffRouter(flagstaff, { auth: { type: 'none' } }));
    const base = await serve(app, flagstaff);
    const ask = async (forwarded: string) => {
      const res = await fetch(`${base}/api/frontend`, { headers: { 'x-forwarded-for': forwarded } });
      return ((await res.json()) as { toggles: { name: string }[] }).toggles.map((t) => t.name);
    };
    expect(await ask('10.1.2.3')).toEqual(['office']);
    expect(await ask('10.9.9.9')).toEqual([]);
  });
});
