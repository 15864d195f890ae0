import { defineOperation, SYSTEM } from '@flagstaff/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { operationRoute, type ParamKeys, type PathParams } from './operation-route.js';

const echo = defineOperation({
  id: 'test.echo',
  summary: 'Echo what arrived',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ project: z.string(), size: z.number().optional() }),
  output: z.strictObject({ project: z.string(), size: z.number().optional() }),
  run: async (input) => input,
});

describe('operation routes', () => {
  it('type params from the path, Hono-style', () => {
    expectTypeOf<ParamKeys<'/api/admin/projects/:projectId/api-tokens/:token'>>().toEqualTypeOf<
      'projectId' | 'token'
    >();
    expectTypeOf<ParamKeys<'/api/admin/api-tokens'>>().toEqualTypeOf<never>();
    expectTypeOf<PathParams<'/a/:b'>>().toEqualTypeOf<{ b: string }>();
    operationRoute({
      method: 'get',
      path: '/api/admin/projects/:projectId/echo',
      operation: echo,
      // @ts-expect-error the path has no `:project` segment
      input: ({ params }) => ({ project: params.project }),
      api: 'admin',
      tag: 'Test',
      status: 200,
    });
  });

  it('become table routes whose answer is the operation output, input from path and body', async () => {
    const route = operationRoute({
      method: 'post',
      path: '/api/admin/projects/:projectId/echo',
      operation: echo,
      input: ({ params, body }) => ({ ...(body as object), project: params.projectId }),
      api: 'admin',
      tag: 'Test',
      status: 200,
    });
    expect(route.summary).toBe('Echo what arrived');
    expect(route.operationId).toBe('test.echo');
    expect(route.response).toBe(echo.output);
    const { createFlagstaff, createMemoryStore } = await import('@flagstaff/core');
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const answer = await route.handler({
      flagstaff,
      caller: SYSTEM,
      params: { projectId: 'default' },
      query: {},
      body: { size: 3, project: 'other' },
      request: { headers: {} },
    } as unknown as Parameters<typeof route.handler>[0]);
    expect(answer).toEqual({ project: 'default', size: 3 });
    await flagstaff.close();
  });

  it('hand the input mapping the request headers (a signal endpoint reads its token there)', async () => {
    const route = operationRoute({
      method: 'post',
      path: '/api/echo/:projectId',
      operation: echo,
      input: ({ headers }) => ({ project: headers['x-project'] }),
      api: 'public',
      tag: 'Test',
      status: 200,
    });
    const { createFlagstaff, createMemoryStore } = await import('@flagstaff/core');
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const answer = await route.handler({
      flagstaff,
      caller: SYSTEM,
      params: { projectId: 'default' },
      query: {},
      body: undefined,
      request: { headers: { 'x-project': 'from-header' } },
    } as unknown as Parameters<typeof route.handler>[0]);
    expect(answer).toEqual({ project: 'from-header' });
    await flagstaff.close();
  });

  it('hand the output to `answer` with the request, for links made absolute', async () => {
    const route = operationRoute({
      method: 'get',
      path: '/api/admin/projects/:projectId/echo',
      operation: echo,
      input: ({ params }) => ({ project: params.projectId }),
      answer: (output, { request }) => ({ ...output, project: `${request.basePath}/${output.project}` }),
      api: 'admin',
      tag: 'Test',
      status: 200,
    });
    const { createFlagstaff, createMemoryStore } = await import('@flagstaff/core');
    const flagstaff = await createFlagstaff({ store: createMemoryStore() });
    const answer = await route.handler({
      flagstaff,
      caller: SYSTEM,
      params: { projectId: 'default' },
      query: {},
      body: undefined,
      request: { basePath: '/flags', headers: {} },
      secureCookies: false,
    } as unknown as Parameters<typeof route.handler>[0]);
    expect(answer).toEqual({ project: '/flags/default' });
    await flagstaff.close();
  });
});
