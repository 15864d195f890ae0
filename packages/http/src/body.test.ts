import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, parseByteLimit } from './body.js';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

/** Request bodies: compressed bodies used to answer 500 on every route that takes one. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ router: { bodyLimit: '8kb' } });
});
afterAll(() => s.close());

const create = (raw: Uint8Array, encoding: string) =>
  s.request('POST', '/api/admin/projects/default/features', {
    raw,
    contentType: 'application/json',
    headers: { 'content-encoding': encoding },
  });

describe('content-encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('%s bodies are decoded', async (encoding, compress) => {
    const name = `zipped-${encoding}`;
    const res = await create(compress(Buffer.from(JSON.stringify({ name }))), encoding);
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe(name);
  });

  it('a small body that decodes past the limit is a 413, and nothing is created', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ name: 'bomb', description: ' '.repeat(1_000_000) })));
    expect(bomb.length).toBeLessThan(8 * 1024);
    const res = await create(bomb, 'gzip');
    expect(res.status, res.text).toBe(413);
    expect(errorBody(res).name).toBe('ContentTooLarge');
    expect((await s.request('GET', '/api/admin/projects/default/features/bomb')).status).toBe(404);
  });

  it('data that is not what the encoding says is a 400 naming the encoding', async () => {
    const res = await create(Buffer.from('{"name":"plain"}'), 'gzip');
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).message).toContain('gzip');
  });

  it('a large body that is not gzip but says so is a 400, not a request that never ends', async () => {
    // Bodies arriving in several chunks waited for the failed decoder to drain, for ever.
    const plain = Buffer.from(JSON.stringify({ name: 'x'.repeat(300_000) }));
    const res = await create(plain, 'gzip');
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).message).toContain('gzip');
  });

  it('a bomb sent in many chunks is a 413', async () => {
    // Incompressible bytes first, so the compressed body spans many chunks before the limit is hit.
    const noise = Buffer.from(Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 251));
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"name":"'), noise]));
    const res = await s.request('POST', '/api/admin/projects/default/features', {
      raw: bomb,
      contentType: 'application/json',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(res.status, res.text).toBe(413);
    expect(errorBody(res).name).toBe('ContentTooLarge');
  });

  it('an unknown encoding is a 415 listing the ones we take', async () => {
    const res = await create(Buffer.from('{"name":"x"}'), 'compress');
    expect(res.status, res.text).toBe(415);
    expect(errorBody(res).message).toMatch(/"compress".*gzip, deflate or br/);
  });
});

describe('parseByteLimit', () => {
  it('reads sizes with units and refuses what is not one', () => {
    expect(parseByteLimit('100kb')).toBe(102_400);
    expect(parseByteLimit('1.5MB')).toBe(1_572_864);
    expect(parseByteLimit(42)).toBe(42);
    expect(() => parseByteLimit('lots')).toThrow(/"lots" is not a size/);
  });
});

describe('nesting depth', () => {
  let d: TestServer;
  beforeAll(async () => {
    d = await startTestServer();
    await d.request('POST', '/api/admin/projects/default/features', { body: { name: 'deep' } });
  });
  afterAll(() => d.close());

  // 15,000 levels is 30 kB, well under the 100 kB body limit; recursive readers overflow the stack.
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('F15: a PATCH body nested 15,000 levels deep is a 400 naming the limit, not a 500', async () => {
    const res = await d.request('PATCH', '/api/admin/projects/default/features/deep', {
      raw: `[{"op":"replace","path":"/description","value":${nested(15_000)}}]`,
      contentType: 'application/json',
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).name).toBe('ValidationError');
    expect(errorBody(res).message).toContain(`more than ${MAX_BODY_DEPTH} levels deep`);
  });

  it('F15: a POST body nested 15,000 levels deep is a 400 naming the limit, and nothing is created', async () => {
    const res = await d.request('POST', '/api/admin/projects/default/features', {
      raw: `{"name":"nested","description":${nested(15_000)}}`,
      contentType: 'application/json',
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).message).toContain(`more than ${MAX_BODY_DEPTH} levels deep`);
    expect((await d.request('GET', '/api/admin/projects/default/features/nested')).status).toBe(404);
  });

  it('F15: brackets inside strings do not count, and nesting up to the limit is read', async () => {
    const res = await d.request('POST', '/api/admin/projects/default/features', {
      raw: JSON.stringify({ name: 'brackets', description: `[[{{\\"${'['.repeat(500)}` }),
      contentType: 'application/json',
    });
    expect(res.status, res.text).toBe(200);
    const atLimit = await d.request('PATCH', '/api/admin/projects/default/features/deep', {
      raw: `[{"op":"replace","path":"/description","value":${nested(MAX_BODY_DEPTH - 2)}}]`,
      contentType: 'application/json',
    });
    // Read, then refused by the feature's own rules (a description is a string), not by the depth check.
    expect(errorBody(atLimit).message ?? '').not.toContain('levels deep');
  });
});
