import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Archiving a parent whose children stay live is refused on every path that archives (it was
 * archived silently, and PUT `archived: true` even kept the links).
 */
let s: TestServer;
const P = '/api/admin/projects/default';

const archived = async (name: string): Promise<boolean> =>
  (await s.request('GET', '/api/admin/archive/features/default')).body.features.some(
    (f: { name: string }) => f.name === name,
  );
const parentsOf = async (child: string): Promise<string[]> =>
  (await s.request('GET', `${P}/features/${child}`)).body.dependencies.map(
    (d: { feature: string }) => d.feature,
  );

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const family = async (parent: string, child: string) => {
  await createFeature(s, parent);
  await createFeature(s, child);
  const dep = await s.request('POST', `${P}/features/${child}/dependencies`, { body: { feature: parent } });
  expect(dep.status, dep.text).toBe(200);
};

describe('archiving a parent with live children', () => {
  it('is refused through DELETE, bulk archive, PUT and PATCH, naming the children; nothing changes', async () => {
    await family('p1', 'c1');
    const attempts = [
      s.request('DELETE', `${P}/features/p1`),
      s.request('POST', `${P}/archive`, { body: { features: ['p1'] } }),
      s.request('PUT', `${P}/features/p1`, { body: { archived: true } }),
      s.request('PATCH', `${P}/features/p1`, { body: [{ op: 'replace', path: '/archived', value: true }] }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(400);
      expect(errorBody(res).message).toContain('"c1"');
    }
    expect(await archived('p1')).toBe(false);
    expect(await parentsOf('c1')).toEqual(['p1']);
  });

  it('goes through when the children are archived in the same call, and the links go', async () => {
    await family('p2', 'c2');
    const res = await s.request('POST', `${P}/archive`, { body: { features: ['p2', 'c2'] } });
    expect(res.status, res.text).toBeLessThan(300);
    expect(await archived('p2')).toBe(true);
    expect(await archived('c2')).toBe(true);
  });

  it('goes through once the child is archived first, by any path', async () => {
    await family('p3', 'c3');
    expect((await s.request('PUT', `${P}/features/c3`, { body: { archived: true } })).status).toBe(200);
    const types = (await s.request('GET', '/api/admin/events/c3')).body.events.map(
      (e: { type: string }) => e.type,
    );
    expect(types).toContain('feature-dependencies-removed');
    const res = await s.request('PUT', `${P}/features/p3`, { body: { archived: true } });
    expect(res.status, res.text).toBe(200);
    expect(await archived('p3')).toBe(true);
  });
});
