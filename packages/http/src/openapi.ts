import type { z } from 'zod';
import type { Route } from './route.js';

type JsonSchema = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'ValidationError: the request does not conform to the schema; the message names the property.',
  401: 'AuthenticationRequired: authorization information is missing or invalid.',
  403: 'NoAccessError: the credentials are valid but lack the permission.',
  404: 'NotFoundError: the requested resource does not exist.',
  409: 'NameExistsError: a resource with that name already exists.',
  413: 'ContentTooLarge: the body exceeds the accepted size.',
  415: 'ContentTypeerror: the body is not application/json.',
  429: 'TooManyRequestsError: slow down.',
};

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of a zod schema, without the `$schema` marker. */
export function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = schema.toJSONSchema({
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
  return rest;
}

/** `/a/:b/c` → `/a/{b}/c` and the parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

/** The error statuses a route can answer, from its shape plus the ones it declares. */
export function errorStatuses(route: Route): number[] {
  const statuses = new Set(route.errors ?? []);
  if (route.api !== 'public') statuses.add(401);
  if (route.api !== 'public') statuses.add(403);
  if (route.body) for (const s of [400, 413, 415]) statuses.add(s);
  if (route.path.includes(':')) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

const camel = (words: string): string =>
  words
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');

function operation(route: Route, operationId: string, params: string[]): JsonSchema {
  const parameters: JsonSchema[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const query = toSchema(route.query, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(query.properties ?? {}))
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
  }
  const redirect = route.status >= 300 && route.status < 400;
  const responses: Record<string, JsonSchema> = {
    [route.status]: redirect
      ? {
          description: 'Redirect, with no body: the Location header says where.',
          headers: { Location: { required: true, schema: { type: 'string' } } },
        }
      : route.empty
        ? { description: 'Success, with no body.' }
        : {
            description: 'Success.',
            content: {
              [route.mediaType ?? 'application/json']: {
                schema: route.response ? toSchema(route.response, 'output') : { type: 'object' },
              },
            },
          },
  };
  for (const status of errorStatuses(route))
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  const op: JsonSchema = { operationId, summary: route.summary, tags: [route.tag], parameters, responses };
  if (route.deprecated) op.deprecated = true;
  if (route.api === 'public') op.security = [];
  if (route.body)
    op.requestBody = {
      required: route.bodyRequired ?? true,
      content: { 'application/json': { schema: toSchema(route.body, 'input') } },
    };
  return op;
}

/** The OpenAPI 3.1 document of a route table; nothing in it is written by hand twice. */
export function buildOpenApiDocument(routes: readonly Route[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const usedIds = new Set<string>();
  for (const route of routes) {
    const { path, params } = openApiPath(route.path);
    let operationId = route.operationId ?? (camel(route.summary) || camel(`${route.method} ${route.path}`));
    for (let n = 2; usedIds.has(operationId); n++) operationId = `${camel(route.summary)}${n}`;
    usedIds.add(operationId);
    paths[path] ??= {};
    paths[path][route.method] = operation(route, operationId, params);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flagstaff API',
      version: '1',
      description: 'Unleash-compatible feature-flag management: admin, client (SDK) and frontend APIs.',
    },
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'An API token, as is or as "Bearer <token>".',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['id', 'name', 'message'],
          properties: {
            id: { type: 'string', description: 'Id of the error instance.' },
            name: { type: 'string', description: 'Name of the error kind.' },
            message: { type: 'string', description: 'What went wrong.' },
            path: { type: 'string', description: 'On 401: where to log in.' },
          },
        },
      },
    },
    security: [{ apiKey: [] }],
  };
}
