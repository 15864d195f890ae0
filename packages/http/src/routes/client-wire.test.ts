import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature, createSegment } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * The SDK-facing answers as bytes on the wire (fetch would decompress them and hide the headers
 * that matter): encodings, ETags and 304s, and the delta API's event shapes.
 */
interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

function raw(s: TestServer, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.base}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));

let s: TestServer;
let client: string;
let frontend: string;
let otherProjectClient: string;
const P = '/api/admin/projects/default';

beforeAll(async () => {
  s = await startTestServer();
  client = await s.token('client');
  frontend = await s.token('frontend');
  await s.request('POST', '/api/admin/projects', { body: { id: 'other', name: 'Other' } });
  otherProjectClient = await s.token('client', { projects: ['other'] });
  // Enough features that the payload is worth compressing (over 1 kB).
  for (let i = 0; i < 12; i++) {
    await createFeature(s, `wire-${i}`, 'default', { description: `Feature number ${i} of the wire test` });
    await addStrategy(s, `wire-${i}`);
    await s.request('POST', `${P}/features/wire-${i}/environments/development/on`);
  }
  await createFeature(s, 'elsewhere', 'other');
});
afterAll(() => s.close());

describe('GET /api/client/features on the wire', () => {
  it('answers gzip and brotli with Vary, the same ETag and the same document as identity', async () => {
    const plain = await raw(s, '/api/client/features', { authorization: client });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.byteLength);
    expect(plain.bytes.byteLength).toBeGreaterThan(1024);

    const gz = await raw(s, '/api/client/features', { authorization: client, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).toBe(plain.headers.etag);
    expect(gz.bytes.byteLength).toBeLessThan(plain.bytes.byteLength);
    expect(json(gunzipSync(gz.bytes))).toEqual(json(plain.bytes));

    const br = await raw(s, '/api/client/features', {
      authorization: client,
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(json(brotliDecompressSync(br.bytes))).toEqual(json(plain.bytes));
  });

  it('honours q=0 and falls back to identity for encodings it does not keep', async () => {
    const noBr = await raw(s, '/api/client/features', {
      authorization: client,
      'accept-encoding': 'br;q=0, gzip',
    });
    expect(noBr.headers['content-encoding']).toBe('gzip');
    const deflateOnly = await raw(s, '/api/client/features', {
      authorization: client,
      'accept-encoding': 'deflate',
    });
    expect(deflateOnly.headers['content-encoding']).toBeUndefined();
    expect(json(deflateOnly.bytes).version).toBe(2);
  });

  it('answers 304 with no body whatever the encoding asked, and 200 again after a change', async () => {
    const first = await raw(s, '/api/client/features', { authorization: client, 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    const again = await raw(s, '/api/client/features', {
      authorization: client,
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    expect(again.headers.etag).toBe(etag);
    await s.request('POST', `${P}/features/wire-0/environments/development/off`);
    const changed = await raw(s, '/api/client/features', { authorization: client, 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    await s.request('POST', `${P}/features/wire-0/environments/development/on`);
  });

  it('gives tokens of different projects different ETags, so one cannot 304 on the other', async () => {
    const mine = await raw(s, '/api/client/features', { authorization: client });
    const theirs = await raw(s, '/api/client/features', { authorization: otherProjectClient });
    expect(theirs.headers.etag).not.toBe(mine.headers.etag);
    expect(json(theirs.bytes).features.map((f: { name: string }) => f.name)).toEqual(['elsewhere']);
    const crossed = await raw(s, '/api/client/features', {
      authorization: otherProjectClient,
      'if-none-match': String(mine.headers.etag),
    });
    expect(crossed.status).toBe(200);
  });
});

describe('GET /api/frontend on the wire', () => {
  it('answers an unchanged evaluation with 304 and a changed one with a new ETag', async () => {
    const path = '/api/frontend?userId=alice&appName=web';
    const first = await raw(s, path, { authorization: frontend });
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const same = await raw(s, path, { authorization: frontend, 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.bytes.byteLength).toBe(0);
    await s.request('POST', `${P}/features/wire-1/environments/development/off`);
    const changed = await raw(s, path, { authorization: frontend, 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const names = json(changed.bytes).toggles.map((t: { name: string }) => t.name);
    expect(names).not.toContain('wire-1');
    await s.request('POST', `${P}/features/wire-1/environments/development/on`);
  });
});

describe('GET /api/client/delta on the wire', () => {
  it('hydrates, then answers 304 until a change, then sends only what changed', async () => {
    const hydration = await raw(s, '/api/client/delta', { authorization: client });
    expect(hydration.status).toBe(200);
    const body = json(hydration.bytes);
    expect(body.events).toHaveLength(1);
    const [event] = body.events;
    expect(event.type).toBe('hydration');
    expect(typeof event.eventId).toBe('number');
    expect(hydration.headers.etag).toBe(`"${event.eventId}"`);
    // Written in pieces (its feature list is the client payload's bytes): the length is the sum.
    expect(Number(hydration.headers['content-length'])).toBe(hydration.bytes.byteLength);
    expect(event.features.map((f: { name: string }) => f.name)).toContain('wire-3');
    const scoped = json((await raw(s, '/api/client/delta', { authorization: otherProjectClient })).bytes);
    expect(scoped.events[0].features.map((f: { name: string }) => f.name)).toEqual(['elsewhere']);
    expect(Array.isArray(event.segments)).toBe(true);

    const etag = String(hydration.headers.etag);
    const unchanged = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': etag });
    expect(unchanged.status).toBe(304);

    await addStrategy(s, 'wire-3', 'development', { name: 'default' });
    const updated = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': etag });
    expect(updated.status).toBe(200);
    const events = json(updated.bytes).events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['feature-updated']);
    expect(events[0].feature.name).toBe('wire-3');
    expect(events[0].feature.strategies.map((st: { name: string }) => st.name)).toContain('default');
    expect(updated.headers.etag).toBe(`"${events[0].eventId}"`);

    const before = String(updated.headers.etag);
    await s.request('DELETE', `${P}/features/wire-4`);
    const removed = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': before });
    const removal = json(removed.bytes).events;
    expect(removal).toEqual([
      expect.objectContaining({ type: 'feature-removed', featureName: 'wire-4', project: 'default' }),
    ]);
  });

  it('sends segment-updated and segment-removed events', async () => {
    const start = await raw(s, '/api/client/delta', { authorization: client });
    const etag = String(start.headers.etag);
    const segment = await createSegment(s, 'wire-segment');
    const added = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': etag });
    const [updated] = json(added.bytes).events;
    expect(updated).toMatchObject({
      type: 'segment-updated',
      segment: { id: segment.id, name: 'wire-segment' },
    });

    const next = String(added.headers.etag);
    await s.request('DELETE', `/api/admin/segments/${segment.id}`);
    const gone = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': next });
    expect(json(gone.bytes).events).toEqual([
      expect.objectContaining({ type: 'segment-removed', segmentId: segment.id }),
    ]);
  });

  it('hydrates a client whose revision is unknown or older than the change window', async () => {
    const res = await raw(s, '/api/client/delta', { authorization: client, 'if-none-match': '"1"' });
    expect(res.status).toBe(200);
    expect(json(res.bytes).events[0].type).toBe('hydration');
  });
});
