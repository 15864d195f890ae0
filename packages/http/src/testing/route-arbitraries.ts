import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { z } from 'zod';
import { toSchema } from '../openapi.js';
import type { Route } from '../route.js';

type JsonSchema = Record<string, unknown>;

/** One generated request against a route. */
export interface FuzzCase {
  /** Which family of input made it, for the report (`valid`, `mutated`, `hostile-body`, …). */
  kind: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** Names the seed data gives real values to, so generated requests reach the services. */
export interface SeedValues {
  params: Record<string, readonly string[]>;
  /** Words mixed into generated strings (existing names make valid-ish bodies hit real rows). */
  words: readonly string[];
}

const HUGE = 'x'.repeat(60_000);

/** Values that break assumptions: wrong types, edges of numbers, odd strings, prototype keys. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    -0,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    '',
    ' ',
    HUGE,
    '\u0000',
    '\ud800',
    '🏳️‍🌈',
    'null',
    '../..',
    '%',
    '<script>',
    '__proto__',
    'constructor',
    [],
    {},
    [[[[[[[[[[]]]]]]]]]],
    { __proto__: { polluted: true } },
    JSON.parse('{"__proto__": {"polluted": true}}'),
    { constructor: { prototype: { polluted: true } } },
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

/** An array nested `depth` deep: parsers and schema walkers that recurse meet it. */
const nested = (depth: number): unknown => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

/** Percent-encodes; a lone surrogate (which encodeURIComponent refuses) becomes its invalid UTF-8 bytes. */
const encode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encode(ch)))
      .join('');
  }
};

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** A valid-ish value of a JSON Schema (as zod writes it): mostly conforming, never strictly. */
function fromSchema(schema: JsonSchema, seed: SeedValues, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(schema.enum);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0)
    return fc.oneof(...variants.map((v) => fromSchema(v, seed, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return fromSchema(schema.allOf[0] as JsonSchema, seed, depth + 1);
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => fromSchema({ ...schema, type }, seed, depth + 1)));
  switch (schema.type) {
    case 'object':
      return objectOf(schema, seed, depth);
    case 'array': {
      const items = (schema.prefixItems as JsonSchema[] | undefined) ?? null;
      if (items) return fc.tuple(...items.map((i) => fromSchema(i, seed, depth + 1)));
      return fc.array(fromSchema((schema.items as JsonSchema) ?? {}, seed, depth + 1), {
        minLength: Math.min(Number(schema.minItems ?? 0), 3),
        maxLength: Math.min(Number(schema.maxItems ?? 3), 3),
      });
    }
    case 'string':
      return stringOf(schema, seed);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -10;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
      return schema.type === 'integer'
        ? fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) })
        : fc.double({ min: Math.max(min, -1e9), max: Math.min(max, 1e9), noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: JsonSchema, seed: SeedValues, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const keys = Object.keys(properties);
  const extra = schema.additionalProperties;
  if (keys.length === 0) {
    const values = typeof extra === 'object' && extra !== null ? (extra as JsonSchema) : {};
    return fc.dictionary(stringOf({}, seed), fromSchema(values, seed, depth + 1), { maxKeys: 3 });
  }
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const record = Object.fromEntries(keys.map((k) => [k, fromSchema(properties[k]!, seed, depth + 1)]));
  return fc.record(record, { requiredKeys: keys.filter((k) => required.has(k)) });
}

function stringOf(schema: JsonSchema, seed: SeedValues): fc.Arbitrary<string> {
  const max = Math.min(Number(schema.maxLength ?? 24), 24);
  const min = Math.min(Number(schema.minLength ?? 0), max);
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  const arbitraries: fc.Arbitrary<string>[] = [
    pick(seed.words).filter((w) => w.length >= min && w.length <= max),
    fc.string({ minLength: min, maxLength: max }),
  ];
  if (typeof schema.pattern === 'string') {
    try {
      arbitraries.push(
        fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max),
      );
    } catch {
      // A pattern JavaScript cannot compile leaves the plain strings.
    }
  }
  return fc.oneof(...arbitraries);
}

/** `value` with one property, element or itself replaced by a hostile value. */
function mutate(value: unknown): fc.Arbitrary<unknown> {
  return fc.tuple(hostileValue, fc.nat(), fc.boolean()).map(([bad, n, deeper]) => {
    if (typeof value !== 'object' || value === null) return bad;
    const copy: unknown = structuredClone(value);
    let target = copy as Record<string, unknown>;
    for (;;) {
      const keys = Object.keys(target);
      if (keys.length === 0) {
        target[Array.isArray(target) ? '0' : 'unexpected'] = bad;
        return copy;
      }
      const key = keys[n % keys.length]!;
      const child = target[key];
      if (deeper && typeof child === 'object' && child !== null) {
        target = child as Record<string, unknown>;
        deeper = false;
        continue;
      }
      target[key] = bad;
      return copy;
    }
  });
}

const BAD_JSON = [
  '{',
  '{"name":}',
  '[1,]',
  '{"a":1}{"b":2}',
  '\u0000{}',
  '"just a string"',
  '12',
  'null',
  '{"name": "\\ud800"}',
  '{"a":'.repeat(3000),
  '   ',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  'application/json;;;charset=',
  'APPLICATION/JSON',
];

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body: its bytes, content type and encoding (sometimes lying about either). */
function bodyCase(route: Route, seed: SeedValues) {
  const schema = route.body ? toSchema(route.body as z.ZodType, 'input') : {};
  const valid = fromSchema(schema, seed, 0);
  const value = fc.oneof(
    { weight: 4, arbitrary: valid.map((v) => ({ kind: 'valid', text: JSON.stringify(v) ?? 'null' })) },
    {
      weight: 4,
      arbitrary: valid.chain(mutate).map((v) => ({ kind: 'mutated', text: JSON.stringify(v) ?? 'null' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(hostileValue, fc.constant(nested(2000)))
        .map((v) => ({ kind: 'hostile-body', text: JSON.stringify(v) ?? 'null' })),
    },
    { weight: 1, arbitrary: pick(BAD_JSON).map((text) => ({ kind: 'bad-json', text })) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: pick(CONTENT_TYPES) },
  );
  const encoding = fc.oneof(
    { weight: 8, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: pick(['gzip', 'deflate', 'br', 'gzip-lie', 'compress', 'gzip, br', 'identity']) },
  );
  return fc.record({ value, contentType, encoding, absent: fc.boolean() }).map((b) => {
    let bytes = utf8(b.value.text);
    let encodingHeader = b.encoding;
    if (b.encoding === 'gzip') bytes = gzipSync(bytes);
    else if (b.encoding === 'deflate') bytes = deflateSync(bytes);
    else if (b.encoding === 'br') bytes = brotliCompressSync(bytes);
    else if (b.encoding === 'gzip-lie') encodingHeader = 'gzip';
    const headers: Record<string, string> = {};
    if (b.contentType) headers['content-type'] = b.contentType;
    if (encodingHeader) headers['content-encoding'] = encodingHeader;
    // Routes without a body schema mostly get none; a body anyway is a case too.
    const skip = !route.body && b.absent;
    return { kind: skip ? 'no-body' : b.value.kind, headers: skip ? {} : headers, body: skip ? null : bytes };
  });
}

const HOSTILE_SEGMENTS = [
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  'a'.repeat(2000),
  '..',
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '%00',
  'é',
  '🏳️‍🌈',
];

/** A path parameter: a seeded value most often, else a hostile segment (some not percent-encoded at all). */
function paramValue(name: string, seed: SeedValues): fc.Arbitrary<string> {
  const known = seed.params[name] ?? [];
  const hostile = fc.oneof(
    pick(HOSTILE_SEGMENTS).map((s) => (s.startsWith('%') ? s : encode(s))),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(encode),
  );
  if (known.length === 0) return hostile;
  return fc.oneof({ weight: 3, arbitrary: pick(known).map(encode) }, { weight: 1, arbitrary: hostile });
}

/** A query string: the route's parameters from its schema, sometimes repeated, unknown or malformed. */
function queryOf(route: Route, seed: SeedValues): fc.Arbitrary<string> {
  const schema = route.query ? toSchema(route.query, 'input') : { type: 'object', properties: {} };
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const pairs = fc.array(
    fc.oneof(
      ...properties.map(([name, s]) =>
        fc
          .oneof(fromSchema(s, seed, 0), hostileValue)
          .map((v) => `${encode(name)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`),
      ),
      pick([
        'limit=-1',
        'offset=1e99',
        'x=%E0%A4%A',
        '%zz=1',
        'q',
        '&&',
        'limit[]=1',
        `q=${'a'.repeat(3000)}`,
      ]),
    ),
    { maxLength: 4 },
  );
  return pairs.map((p) => (p.length === 0 ? '' : `?${p.join('&')}`));
}

/** Authorization for a route's API family: the right token mostly, sometimes a wrong or odd one. */
function authorizationOf(route: Route, tokens: Record<string, string>): fc.Arbitrary<string | null> {
  // OFREP (`sdk`) takes client and frontend tokens: fuzz it with the client one.
  const family = route.api === 'sdk' ? 'client' : route.api;
  const right = family === 'public' ? null : (tokens[family] ?? null);
  return fc.oneof(
    { weight: 9, arbitrary: fc.constant(right) },
    {
      weight: 1,
      arbitrary: pick<string | null>([null, '', 'Bearer ', 'nonsense', `*:*.${'z'.repeat(500)}`]),
    },
  );
}

const EXTRA_HEADERS = fc.dictionary(
  pick([
    'if-none-match',
    'accept-encoding',
    'accept',
    'origin',
    'cookie',
    'last-event-id',
    'unleash-appname',
  ]),
  pick([
    '*',
    '"abc"',
    'W/"1"',
    'gzip, br',
    'identity;q=0',
    'text/html',
    'http://evil.example',
    'flagstaff-session=abc',
    '-1',
    '',
  ]),
  { maxKeys: 2 },
);

/** Every kind of request against one route, from and against its schemas. */
export function routeCases(
  route: Route,
  seed: SeedValues,
  tokens: Record<string, string>,
): fc.Arbitrary<FuzzCase> {
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const params = fc.tuple(...names.map((n) => paramValue(n, seed)));
  return fc
    .record({
      params,
      query: queryOf(route, seed),
      body: bodyCase(route, seed),
      authorization: authorizationOf(route, tokens),
      extra: EXTRA_HEADERS,
    })
    .map(({ params: values, query, body, authorization, extra }) => {
      let i = 0;
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, () => values[i++] ?? '');
      const headers = { ...extra, ...body.headers };
      if (authorization !== null) headers.authorization = authorization;
      return { kind: body.kind, path, query, headers, body: body.body };
    });
}
