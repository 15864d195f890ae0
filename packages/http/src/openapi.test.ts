import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, errorStatuses, openApiPath } from './openapi.js';
import { allRoutes } from './routes/index.js';
import { startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// biome-ignore lint/suspicious/noExplicitAny: the test walks the generated document freely
type Doc = { openapi: string; paths: Record<string, Record<string, Record<string, any>>> };

describe('GET /docs/openapi.json', () => {
  it('is a public OpenAPI 3.1 JSON document holding every route of the table', async () => {
    const res = await s.request('GET', '/docs/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const doc = res.body as Doc;
    expect(doc.openapi).toBe('3.1.0');
    for (const route of allRoutes()) {
      const op = doc.paths[openApiPath(route.path).path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(Object.keys(op!.responses)).toContain(String(route.status));
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('documents the contract endpoints with their statuses, bodies from the zod schemas, and deprecations', () => {
    const doc = buildOpenApiDocument(allRoutes()) as Doc;
    const bulkOff =
      doc.paths['/api/admin/projects/{projectId}/bulk_features/environments/{environment}/off']!.post!;
    expect(Object.keys(bulkOff.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415']);
    expect(bulkOff.responses['200'].content).toBeUndefined();
    expect(bulkOff.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['features'],
      properties: { features: { type: 'array', items: { type: 'string' } } },
    });
    expect(bulkOff.parameters.map((p: { name: string }) => p.name)).toEqual(['projectId', 'environment']);
    expect(doc.paths['/api/admin/playground']!.post!.deprecated).toBe(true);
    expect(doc.paths['/api/admin/dashboard/executive']!.get!.deprecated).toBe(true);
    expect(
      doc.paths['/api/admin/projects/{projectId}/groups/{groupId}/roles/{roleId}']!.put!.deprecated,
    ).toBe(true);
    expect(doc.paths['/api/signal-endpoint/{endpointName}']!.post!.security).toEqual([]);
    const playground =
      doc.paths['/api/admin/playground']!.post!.requestBody.content['application/json'].schema;
    expect(playground.properties.context.required).toContain('appName'); // The reference's link redirects answer 302 with a Location and no body, never JSON.
    for (const path of ['/new-user', '/reset-password']) {
      const redirect = doc.paths[path]!.get!.responses['302'];
      expect(redirect.content).toBeUndefined();
      expect(redirect.headers.Location).toMatchObject({ required: true, schema: { type: 'string' } });
    }
  });
  it('is a valid OpenAPI 3.1 document (the OpenAPI Initiative schema, by @seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApiDocument(allRoutes()));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse: a response without its required description is not OpenAPI.
    const broken = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { responses: { 200: {} } } } },
    };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
  it('describes the answers of operation routes with their output schemas', () => {
    const doc = buildOpenApiDocument(allRoutes()) as Doc;
    const list = doc.paths['/api/admin/api-tokens']!.get!;
    expect(list.operationId).toBe('apiTokens.list');
    const token = list.responses['200'].content['application/json'].schema.properties.tokens.items;
    expect(token.required).toEqual(expect.arrayContaining(['secret', 'tokenName', 'type', 'projects']));
    expect(token.additionalProperties).toBe(false);
    expect(token.properties.type.enum).toEqual(['client', 'admin', 'frontend']);
    const created = doc.paths['/api/admin/projects/{projectId}/api-tokens']!.post!.responses['201'];
    expect(created.content['application/json'].schema.properties.secret.type).toBe('string');
  });
  it('describes every success body: no answer is left as a bare object, and downloads name their media type', () => {
    const doc = buildOpenApiDocument(allRoutes()) as Doc;
    const bare: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        for (const [status, response] of Object.entries<Doc['paths'][string][string]>(op.responses))
          for (const [media, content] of Object.entries<Doc['paths'][string][string]>(
            response.content ?? {},
          )) {
            const schema = content.schema ?? {};
            if (schema.type === 'object' && !schema.properties && !schema.additionalProperties)
              bare.push(`${method.toUpperCase()} ${path} ${status} ${media}`);
          }
    expect(bare).toEqual([]);
    const answer = (path: string, method: string) => doc.paths[path]![method]!.responses['200'].content;
    expect(answer('/api/admin/instance-admin/statistics/csv', 'get')).toEqual({
      'text/csv': { schema: { type: 'string' } },
    });
    expect(answer('/api/admin/backup', 'get')['application/vnd.sqlite3'].schema).toMatchObject({
      type: 'string',
      contentMediaType: 'application/vnd.sqlite3',
    });
    const exported = answer('/api/admin/features-batch/export', 'post')['application/json'].schema;
    expect(exported.additionalProperties).toBe(false);
    expect(Object.keys(exported.properties)).toEqual(
      expect.arrayContaining(['features', 'featureStrategies', 'featureEnvironments', 'dependencies']),
    );
    // The import takes the same document (read leniently) that the export answers.
    const importBody =
      doc.paths['/api/admin/features-batch/import']!.post!.requestBody.content['application/json'];
    expect(Object.keys(importBody.schema.properties.data.properties)).toEqual(
      Object.keys(exported.properties),
    );
    expect(answer('/api/admin/features-batch/validate', 'post')['application/json'].schema.required).toEqual([
      'errors',
      'warnings',
      'permissions',
    ]);
    expect(
      answer('/edge/validate', 'post')['application/json'].schema.properties.tokens.items.required,
    ).toEqual(['token', 'type', 'projects']);
  });
  it('derives error statuses from the route shape', () => {
    const byKey = new Map(allRoutes().map((r) => [`${r.method} ${r.path}`, r]));
    // Every authenticated route may refuse: a token of another API family, or a missing permission.
    expect(errorStatuses(byKey.get('get /api/admin/events')!)).toEqual([401, 403]);
    expect(errorStatuses(byKey.get('post /invite/:token/signup')!)).toEqual([400, 404, 409, 413, 415]);
  });
});
