import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Route } from '../route.js';
import { startTestServer, type TestServer } from './harness.js';
import { createResponseCheck, ResponseSchemaError } from './response-check.js';

const route = (over: Partial<Route>): Route => ({
  method: 'get',
  path: '/things/:id',
  api: 'admin',
  tag: 'Things',
  summary: 'A thing',
  status: 200,
  response: z.strictObject({ id: z.string(), size: z.number() }),
  handler: async () => undefined,
  ...over,
});

describe('the strict response check', () => {
  it('accepts a body its route declares and refuses one that breaks the schema', () => {
    const check = createResponseCheck([route({})]);
    expect(() => check.check('GET', '/things/a?x=1', 200, { id: 'a', size: 1 })).not.toThrow();
    expect(() => check.check('GET', '/things/a', 200, { id: 'a', size: '1' })).toThrow(ResponseSchemaError);
    expect(() => check.check('GET', '/things/a', 200, { id: 'a', size: 1, secretHash: 'x' })).toThrow(
      /secretHash|unrecognized/i,
    );
    expect(() => check.check('GET', '/things/a', 200, undefined)).toThrow(ResponseSchemaError);
    expect(check.checked).toBe(4);
  });
  it('leaves error answers, other statuses, empty routes and routes without a schema alone', () => {
    const check = createResponseCheck([
      route({}),
      route({ path: '/plain', response: undefined }),
      route({ method: 'delete', empty: true }),
    ]);
    check.check('GET', '/things/a', 404, { id: 'x', name: 'NotFoundError', message: 'no' });
    check.check('GET', '/plain', 200, { anything: true });
    check.check('DELETE', '/things/a', 200, undefined);
    check.check('HEAD', '/things/a', 200, undefined);
    expect(check.checked).toBe(0);
  });
  it('knows the real route table: a token listing that leaked a stored field fails', () => {
    const check = createResponseCheck();
    const token = {
      secret: '*:*.abc…',
      username: 'a',
      tokenName: 'a',
      type: 'admin',
      environment: '*',
      project: '*',
      projects: ['*'],
      expiresAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      seenAt: null,
      alias: null,
    };
    expect(() => check.check('GET', '/api/admin/api-tokens', 200, { tokens: [token] })).not.toThrow();
    expect(() =>
      check.check('GET', '/api/admin/api-tokens', 200, { tokens: [{ ...token, secretHash: 'h' }] }),
    ).toThrow(ResponseSchemaError);
  });
});

describe('the test harness', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('checks every answer of a route with an output schema', async () => {
    const before = s.responsesChecked;
    await s.token('client');
    expect((await s.request('GET', '/api/admin/api-tokens')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/api-tokens/client-token')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects/default/api-tokens')).status).toBe(200);
    expect(s.responsesChecked - before).toBe(4);
  });
});
