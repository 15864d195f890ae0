// The route table only maps HTTP onto service calls; the policy inside each service decides. This
// walks every route and proves each one asks it: a token of another API family is refused with 403
// before anything is read or written, whichever route it calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from './routes/index.js';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  tokens.client = await s.token('client');
  tokens.frontend = await s.token('frontend');
  tokens.admin = s.adminToken;
});
afterAll(() => s.close());

/**
 * A body every route's own shape reading accepts (a few handlers pick a list or a name out of the
 * body before the call), so what answers is the service's policy, not a 400.
 */
const BODY = {
  features: ['x'],
  stale: true,
  environment: 'development',
  users: [{ user: { id: 1 } }],
  roles: [1],
};

/** A path with every parameter filled in (numeric, so id parameters parse). */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, '1');

/** The streaming route answers with a stream that stays open; its refusals are tested in sdk-stream-resilience. */
const routes = allRoutes().filter((r) => r.api !== 'public' && r.path !== '/api/client/streaming');

describe('every route asks the policy', () => {
  it('admin routes refuse client and frontend tokens with 403, and nothing is written', async () => {
    const before = await s.flagstaff.store.events.latestId();
    const admin = routes.filter((r) => r.api === 'admin');
    expect(admin.length).toBeGreaterThan(100);
    for (const route of admin)
      for (const type of ['client', 'frontend']) {
        const res = await s.request(route.method.toUpperCase(), concrete(route.path), {
          token: tokens[type]!,
          ...(route.method === 'get' || route.method === 'delete' ? {} : { body: BODY }),
        });
        expect([route.method, route.path, type, res.status]).toEqual([route.method, route.path, type, 403]);
        expect(errorBody(res).name).toBe('NoAccessError');
      }
    expect(await s.flagstaff.store.events.latestId()).toBe(before);
  });

  it('SDK routes refuse tokens of the other families with 403', async () => {
    for (const route of routes.filter((r) => r.api !== 'admin')) {
      // Unleash Edge's token check also takes an admin token, as the reference's does; OFREP (`sdk`)
      // takes client and frontend tokens.
      const also =
        route.path === '/edge/validate' ? ['admin'] : route.api === 'sdk' ? ['client', 'frontend'] : [];
      for (const type of ['client', 'frontend', 'admin'].filter(
        (t) => t !== route.api && !also.includes(t),
      )) {
        const res = await s.request(route.method.toUpperCase(), concrete(route.path), {
          token: tokens[type]!,
          ...(route.method === 'get' ? {} : { body: BODY }),
        });
        expect([route.path, type, res.status]).toEqual([route.path, type, 403]);
      }
    }
  });
});
