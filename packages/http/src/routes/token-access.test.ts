import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as } from '../testing/as-user.js';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Who reads and issues API token secrets (security review findings F1 and F2): the policy judges
 * each token by its type's permission and by the projects it reaches.
 */
let s: TestServer;
let viewer: As;
let editor: As;
let owner: As;
let member: As;
let projectSecret: string;
let privateSecret: string;

const secrets = (body: { tokens: { secret: string }[] }): string[] => body.tokens.map((t) => t.secret);

beforeAll(async () => {
  // With a server key secrets are kept sealed and listings show them whole, as on the standalone server.
  s = await startTestServer({ flagstaff: { secretKey: 'k'.repeat(64) } });
  viewer = as(await s.user('Viewer'));
  editor = as(await s.user('Editor'));
  const ownerId = await s.user('Viewer');
  owner = as(ownerId);
  const memberId = await s.user('Editor');
  member = as(memberId);
  const created = await s.request('POST', '/api/admin/projects', {
    body: { id: 'secret', name: 'Secret', mode: 'private' },
  });
  expect(created.status, created.text).toBe(201);
  for (const [project, id, role] of [
    ['default', ownerId, 4],
    ['secret', memberId, 5],
  ] as const) {
    const res = await s.request('PUT', `/api/admin/projects/${project}/users/${id}/roles`, {
      body: { roles: [role] },
    });
    expect(res.status, res.text).toBe(200);
  }
  await createFeature(s, 'hidden-flag', 'secret');
  projectSecret = await s.token('client', { projects: ['default'] });
  privateSecret = await s.token('client', { projects: ['secret'] });
});
afterAll(() => s.close());

describe("F1: a project's SDK token secrets", () => {
  it('F1: a Viewer gets 403 NoAccessError on the project token list and no secret', async () => {
    const res = await s.request('GET', '/api/admin/projects/default/api-tokens', viewer);
    expect(res.status, res.text).toBe(403);
    expect(errorBody(res).name).toBe('NoAccessError');
    expect(res.text).not.toContain(projectSecret);
  });

  it('F1: the project Owner and an Editor read them; the secrets work on the client API', async () => {
    for (const who of [owner, editor]) {
      const res = await s.request('GET', '/api/admin/projects/default/api-tokens', who);
      expect(res.status, res.text).toBe(200);
      expect(secrets(res.body)).toContain(projectSecret);
    }
    const client = await s.request('GET', '/api/client/features', { token: projectSecret });
    expect(client.status).toBe(200);
  });

  it('F1: a Viewer cannot issue or delete project tokens either', async () => {
    const create = await s.request('POST', '/api/admin/projects/default/api-tokens', {
      ...viewer,
      body: { tokenName: 'x', type: 'client', environment: 'development' },
    });
    expect(create.status, create.text).toBe(403);
    const del = await s.request(
      'DELETE',
      `/api/admin/projects/default/api-tokens/${encodeURIComponent(projectSecret)}`,
      viewer,
    );
    expect(del.status, del.text).toBe(403);
    expect((await s.request('GET', '/api/client/features', { token: projectSecret })).status).toBe(200);
  });
});

describe('F2: tokens and private projects', () => {
  it('F2: an Editor who is not a member cannot issue a "*" token, so cannot read private flags', async () => {
    const res = await s.request('POST', '/api/admin/api-tokens', {
      ...editor,
      body: { tokenName: 'all', type: 'client', projects: ['*'], environment: 'development' },
    });
    expect(res.status, res.text).toBe(403);
    expect(errorBody(res).message).toContain('"*"');
  });

  it('F2: a member of every private project (and an Admin) still can', async () => {
    const res = await s.request('POST', '/api/admin/api-tokens', {
      ...member,
      body: { tokenName: 'all', type: 'client', projects: ['*'], environment: 'development' },
    });
    expect(res.status, res.text).toBe(201);
    const flags = await s.request('GET', '/api/client/features', { token: res.body.secret });
    expect(flags.body.features.map((f: { name: string }) => f.name)).toContain('hidden-flag');
  });

  it('F2: token listings leave out tokens reaching projects the caller may not see', async () => {
    const everyToken = await s.request('GET', '/api/admin/api-tokens', editor);
    expect(everyToken.status).toBe(200);
    expect(everyToken.text).not.toContain(privateSecret);
    expect(secrets(everyToken.body)).toContain(projectSecret);
    // "*" tokens reach the private project too.
    expect(everyToken.body.tokens.some((t: { projects: string[] }) => t.projects.includes('*'))).toBe(false);
    const byName = await s.request('GET', '/api/admin/api-tokens/client-token', editor);
    expect(byName.status).toBe(200);
    expect(byName.text).not.toContain(privateSecret);
    const asMember = await s.request('GET', '/api/admin/api-tokens', member);
    expect(secrets(asMember.body)).toContain(privateSecret);
  });

  it('F2: a token of a hidden project cannot be changed or deleted by a non-member', async () => {
    const path = `/api/admin/api-tokens/${encodeURIComponent(privateSecret)}`;
    const update = await s.request('PUT', path, { ...editor, body: { expiresAt: '2030-01-01T00:00:00Z' } });
    expect(update.status, update.text).toBe(404);
    await s.request('DELETE', path, editor);
    expect((await s.request('GET', '/api/client/features', { token: privateSecret })).status).toBe(200);
  });

  it('F2: a Viewer is refused the root token list', async () => {
    const res = await s.request('GET', '/api/admin/api-tokens', viewer);
    expect(res.status, res.text).toBe(403);
  });
});
