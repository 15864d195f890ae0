import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const F = '/api/admin/projects/default/features';

/** `beta`: on in development for userIds 1 and 2 only; off in production. */
async function seedBeta(): Promise<void> {
  await s.request('POST', F, { body: { name: 'beta' } });
  await s.request('POST', `${F}/beta/environments/development/strategies`, {
    body: { name: 'userWithId', parameters: { userIds: '1,2' } },
  });
  await s.request('POST', `${F}/beta/environments/development/on`);
}

describe('POST /api/admin/playground/advanced', () => {
  it('evaluates each environment for every context the listed values expand to', async () => {
    await seedBeta();
    const res = await s.request('POST', '/api/admin/playground/advanced', {
      body: {
        environments: ['development', 'production'],
        context: { appName: 'web', userId: '1,3', properties: { plan: 'free, pro' } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.input.environments).toEqual(['development', 'production']);
    const [beta] = res.body.features;
    expect(beta.name).toBe('beta');
    expect(beta.projectId).toBe('default');
    const dev = beta.environments.development as { isEnabled: boolean; context: Record<string, unknown> }[];
    expect(dev).toHaveLength(4);
    expect(
      dev.map((e) => [e.context.userId, (e.context.properties as { plan: string }).plan, e.isEnabled]),
    ).toEqual([
      ['1', 'free', true],
      ['1', 'pro', true],
      ['3', 'free', false],
      ['3', 'pro', false],
    ]);
    expect(beta.environments.production.every((e: { isEnabled: boolean }) => !e.isEnabled)).toBe(true);
    expect(beta.environments.production[0].context.environment).toBe('production');
  });

  it('names an unknown environment, a missing one and a context too large', async () => {
    const unknown = await s.request('POST', '/api/admin/playground/advanced', {
      body: { environments: ['development', 'nowhere'], context: { appName: 'web' } },
    });
    expect(unknown.status).toBe(400);
    expect(errorBody(unknown).message).toContain('environments[1]');
    const none = await s.request('POST', '/api/admin/playground/advanced', {
      body: { environments: [], context: { appName: 'web' } },
    });
    expect(none.status).toBe(400);
    expect(errorBody(none).message).toContain('environments');
    const many = Array.from({ length: 40 }, (_, i) => String(i)).join(',');
    const large = await s.request('POST', '/api/admin/playground/advanced', {
      body: { environments: ['development'], context: { appName: 'web', userId: many, sessionId: many } },
    });
    expect(large.status).toBe(400);
    expect(errorBody(large).message).toMatch(/"context\.(userId|sessionId)" lists more values/);
  });
});

describe('null context values in the playground', () => {
  it('treats a null property (and null optional fields) as missing instead of refusing the request', async () => {
    await seedBeta();
    const res = await s.request('POST', '/api/admin/playground', {
      body: {
        environment: 'development',
        context: { appName: 'web', userId: '2', sessionId: null, properties: { plan: null, region: 'eu' } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.input.context.properties).toEqual({ region: 'eu' });
    expect(res.body.features[0]).toMatchObject({ name: 'beta', isEnabled: true });
  });
});

describe('POST /edge/validate', () => {
  it('answers the valid SDK tokens among those sent, with their projects', async () => {
    const client = await s.token('client');
    const frontend = await s.token('frontend');
    const edge = await s.token('client');
    const res = await s.request('POST', '/edge/validate', {
      token: edge,
      body: { tokens: [client, 'default:development.unknown', frontend, s.adminToken] },
    });
    expect(res.status).toBe(200);
    expect(res.body.tokens).toEqual([
      { token: client, type: 'client', projects: ['*'] },
      { token: frontend, type: 'frontend', projects: ['*'] },
    ]);
    await s.request('DELETE', `/api/admin/api-tokens/${encodeURIComponent(client)}`);
    const after = await s.request('POST', '/edge/validate', { token: edge, body: { tokens: [client] } });
    expect(after.body.tokens).toEqual([]);
    const bad = await s.request('POST', '/edge/validate', { token: edge, body: { tokens: 'x' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('tokens');
  });

  it('F18: needs a client token or an admin; anyone else learns nothing about the tokens sent', async () => {
    const client = await s.token('client');
    const frontend = await s.token('frontend');
    const body = { tokens: [client] };
    const anonymous = await s.request('POST', '/edge/validate', { token: null, body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain(client);
    const unknown = await s.request('POST', '/edge/validate', { token: '*:*.not-a-token', body });
    expect(unknown.status).toBe(401);
    const wrongFamily = await s.request('POST', '/edge/validate', { token: frontend, body });
    expect(wrongFamily.status).toBe(403);
    expect(wrongFamily.text).not.toContain(client);
    const viewer = await s.user('Viewer');
    const asViewer = await s.request('POST', '/edge/validate', {
      token: null,
      headers: { 'x-test-user': String(viewer) },
      body,
    });
    expect(asViewer.status).toBe(403);
    for (const token of [client, s.adminToken]) {
      const allowed = await s.request('POST', '/edge/validate', { token, body });
      expect(allowed.status).toBe(200);
      expect(allowed.body.tokens).toEqual([{ token: client, type: 'client', projects: ['*'] }]);
    }
  });
});
