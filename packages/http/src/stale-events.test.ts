import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from './testing/fixtures.js';
import { startTestServer, type TestServer } from './testing/harness.js';

/** Marking a feature stale is one change, so one event, whichever route the client uses. */
let s: TestServer;
const P = '/api/admin/projects/default';

beforeAll(async () => {
  s = await startTestServer();
  await createFeature(s, 'old-flag');
});
afterAll(() => s.close());

const eventTypes = async (): Promise<string[]> => {
  const res = await s.request('GET', '/api/admin/events/old-flag');
  expect(res.status, res.text).toBe(200);
  return (res.body.events as { type: string }[]).map((e) => e.type);
};

describe('stale toggles', () => {
  it('PUT {stale} and PATCH /stale each write exactly one event', async () => {
    const before = (await eventTypes()).length;
    expect((await s.request('PUT', `${P}/features/old-flag`, { body: { stale: true } })).status).toBe(200);
    expect((await eventTypes()).slice(0, -before || undefined)).toEqual(['feature-stale-on']);
    const patch = [{ op: 'replace', path: '/stale', value: false }];
    expect((await s.request('PATCH', `${P}/features/old-flag`, { body: patch })).status).toBe(200);
    expect((await eventTypes()).length).toBe(before + 2);
    expect((await eventTypes())[0]).toBe('feature-stale-off');
    // The same state again changes nothing and writes nothing.
    expect((await s.request('PUT', `${P}/features/old-flag`, { body: { stale: false } })).status).toBe(200);
    expect((await eventTypes()).length).toBe(before + 2);
  });
});
