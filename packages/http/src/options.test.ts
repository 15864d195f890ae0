import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, createMemoryStore } from '@flagstaff/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from './adapters/node.js';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

/** Router options: mounting, authentication modes, body limit, unknown routes, unexpected errors. */
const servers: TestServer[] = [];
const start = async (...args: Parameters<typeof startTestServer>) => {
  const s = await startTestServer(...args);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('mounting', () => {
  it('works under any prefix, with a relative location header and the prefix in the document servers', async () => {
    const s = await start({ prefix: '/flags/v1' });
    expect((await s.request('GET', '/api/admin/projects')).status).toBe(200);
    const invite = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'n', expiresAt: '2099-01-01T00:00:00Z' },
    });
    expect(invite.headers.get('location')).toBe(`tokens/${invite.body.secret}`);
    expect(errorBody(await s.request('GET', '/api/admin/nope')).name).toBe('NotFoundError');
    const doc = await s.request('GET', '/docs/openapi.json', { token: null });
    expect(doc.body.servers).toEqual([{ url: '/flags/v1' }]);
    const outside = await fetch(s.base.replace('/flags/v1', '/api/admin/projects'));
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).not.toContain('application/json');
  });
  it("unknownRoutes: 'next' leaves unmatched paths to the host (node adapter)", async () => {
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const api = createNodeHandler(flagstaff, { auth: { type: 'none' }, unknownRoutes: 'next' });
    const server = createServer((req, res) => {
      api(req, res, () => res.end('host page'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/host`)).text()).toBe('host page');
    expect((await fetch(`${base}/api/admin/projects`)).status).toBe(200);
    server.close();
    await flagstaff.close();
  });
});

describe("auth: { type: 'none' }", () => {
  it('needs no token anywhere and records changes as the anonymous user', async () => {
    const s = await start({ router: { auth: { type: 'none' } } });
    const res = await s.request('POST', '/api/admin/projects/default/features', {
      body: { name: 'open' },
      token: null,
    });
    expect(res.status).toBe(200);
    expect(
      (await s.request('GET', '/api/client/features', { token: null })).body.features.map(
        (f: { name: string }) => f.name,
      ),
    ).toEqual(['open']);
    expect((await s.request('GET', '/api/frontend', { token: null })).status).toBe(200);
    const events = await s.request('GET', '/api/admin/events/open', { token: null });
    expect(events.body.events[0].createdBy).toBe('anonymous');
  });
});

describe('bodyLimit', () => {
  it('is configurable', async () => {
    const s = await start({ router: { bodyLimit: '1kb' } });
    const res = await s.request('POST', '/api/admin/projects/default/features', {
      body: { name: 'x', description: 'y'.repeat(2000) },
    });
    expect(res.status).toBe(413);
    expect(errorBody(res).message).toContain('1024 bytes');
    expect(
      (await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'small' } })).status,
    ).toBe(200);
  });
});

describe('unexpected errors', () => {
  it('become a 500 that leaks nothing, logged with the error id', async () => {
    const s = await start({
      router: {
        authenticate: () => {
          throw new Error('database password is hunter2');
        },
      },
    });
    const res = await s.request('GET', '/api/admin/projects');
    expect(res.status).toBe(500);
    const body = errorBody(res);
    expect(body.name).toBe('InternalServerError');
    expect(res.text).not.toContain('hunter2');
    expect(s.logged).toHaveLength(1);
    expect(s.logged[0]!.fields?.errorId).toBe(body.id);
    expect(JSON.stringify(s.logged[0]!.fields)).toContain('hunter2');
  });
  it('a closed store answers 503', async () => {
    const s = await start();
    await s.flagstaff.store.close();
    const res = await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'late' } });
    expect(res.status, res.text).toBe(503);
    expect(errorBody(res).name).toBe('ServiceUnavailableError');
  });
});
