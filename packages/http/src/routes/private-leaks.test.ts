import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as, expectHidden } from '../testing/as-user.js';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Figures and messages that told a non-member about a private project (security finding F16). */
let s: TestServer;
let viewer: As;
let editor: As;

beforeAll(async () => {
  s = await startTestServer();
  viewer = as(await s.user('Viewer'));
  editor = as(await s.user('Editor'));
  const created = await s.request('POST', '/api/admin/projects', {
    body: { id: 'secret', name: 'Secret', mode: 'private' },
  });
  expect(created.status, created.text).toBe(201);
  for (const name of ['secret.one', 'secret.two', 'secret.three']) await createFeature(s, name, 'secret');
  await createFeature(s, 'open.one');
  await createFeature(s, 'open.child');
});
afterAll(() => s.close());

describe('F16: private projects in insights and dependency errors', () => {
  it('F16: a non-member Viewer sees only visible flags counted in GET /api/admin/insights', async () => {
    const asViewer = await s.request('GET', '/api/admin/insights', viewer);
    expect(asViewer.status, asViewer.text).toBe(200);
    expect(asViewer.body.flags.total).toBe(2);
    expect(asViewer.text).not.toContain('secret');
    const asAdmin = await s.request('GET', '/api/admin/insights');
    expect(asAdmin.body.flags.total).toBe(5);
  });

  it('F16: a parent in a private project answers NOT_FOUND, as an unknown one does, never naming the project', async () => {
    const add = (feature: string) =>
      s.request('POST', '/api/admin/projects/default/features/open.child/dependencies', {
        ...editor,
        body: { feature },
      });
    const hidden = await add('secret.one');
    expectHidden(hidden, 'feature "secret.one"');
    expect(hidden.text).not.toContain('"secret"');
    expectHidden(await add('no.such.flag'), 'feature "no.such.flag"');
    // An Admin sees the project and is told why the parent cannot be used.
    const asAdmin = await s.request('POST', '/api/admin/projects/default/features/open.child/dependencies', {
      body: { feature: 'secret.one' },
    });
    expect(asAdmin.status).toBe(400);
    expect(errorBody(asAdmin).message).toContain('project "secret"');
  });
});
