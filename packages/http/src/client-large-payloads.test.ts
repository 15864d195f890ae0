// A client payload past a megabyte over real loopback HTTP: gzip goes before brotli (its blocks are
// kept between revisions) and stays a valid gzip of the payload after a change; a stream hands a
// hydration larger than its queue bound to a client that has read everything before it.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness.js';

const FEATURES = 2500;
const names = Array.from({ length: FEATURES }, (_, i) => `large-${String(i).padStart(4, '0')}`);

let s: TestServer;
let client: string;

beforeAll(async () => {
  s = await startTestServer({ router: { streaming: { maxQueuedBytes: 64 * 1024 } } });
  const data = {
    features: names.map((name, i) => ({
      name,
      type: 'release',
      project: 'default',
      description: `Feature ${i}: ${'a description long enough to make the payload large. '.repeat(6)}`,
      impressionData: false,
    })),
    featureStrategies: names.map((featureName) => ({
      featureName,
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: featureName },
      constraints: [],
    })),
    featureEnvironments: names.map((featureName) => ({
      featureName,
      name: featureName,
      environment: 'development',
      enabled: true,
      variants: [],
    })),
  };
  const imported = await s.request('POST', '/api/admin/features-batch/import', {
    body: { project: 'default', environment: 'development', data },
  });
  expect(imported.status, imported.text).toBe(200);
  client = await s.token('client', { environment: 'development' });
});
afterAll(() => s.close());

/** GET /api/client/features with an Accept-Encoding; the raw body and its encoding. */
function getFeatures(acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `${s.base}/api/client/features`,
        { headers: { authorization: client, 'accept-encoding': acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              encoding: res.headers['content-encoding'] as string | undefined,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      )
      .on('error', reject);
  });
}

const toggle = (name: string, on: boolean) =>
  s.request(
    'POST',
    `/api/admin/projects/default/features/${name}/environments/development/${on ? 'on' : 'off'}`,
  );

describe('client payloads past a megabyte', () => {
  it('answers gzip before brotli, a valid gzip of the payload before and after a change', async () => {
    for (const [i, change] of [null, 'large-1234', 'large-0000', 'large-2499'].entries()) {
      if (change) expect((await toggle(change, i % 2 === 0)).status).toBeLessThan(300);
      const plain = await getFeatures('identity');
      expect(plain.encoding).toBeUndefined();
      expect(plain.body.byteLength).toBeGreaterThan(1024 * 1024);
      const gzipped = await getFeatures('gzip, deflate, br');
      expect(gzipped.encoding).toBe('gzip');
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
      if (change) {
        const feature = JSON.parse(plain.body.toString()).features.find(
          (f: { name: string }) => f.name === change,
        );
        expect(feature.enabled).toBe(i % 2 === 0);
      }
    }
    // Brotli alone is still served.
    expect((await getFeatures('br')).encoding).toBe('br');
  });

  it('streams a hydration larger than the queue bound, then the changes', async () => {
    const frames: string[] = [];
    let text = '';
    let notify: () => void = () => {};
    const req = http.get(`${s.base}/api/client/streaming`, { headers: { authorization: client } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        let end = text.indexOf('\n\n');
        while (end >= 0) {
          frames.push(text.slice(0, end));
          text = text.slice(end + 2);
          end = text.indexOf('\n\n');
        }
        notify();
      });
    });
    const frame = async (event: string): Promise<string> => {
      for (;;) {
        const found = frames.find((f) => f.startsWith(`event: ${event}`));
        if (found) {
          frames.splice(frames.indexOf(found), 1);
          return found.slice(found.indexOf('data: ') + 6);
        }
        await new Promise<void>((r) => {
          notify = r;
        });
      }
    };
    try {
      const hydration = await frame('unleash-connected');
      expect(hydration.length).toBeGreaterThan(64 * 1024);
      const [event] = JSON.parse(hydration).events;
      expect(event.type).toBe('hydration');
      expect(event.features).toHaveLength(FEATURES);
      expect((await toggle('large-0042', false)).status).toBeLessThan(300);
      const update = JSON.parse(await frame('unleash-updated'));
      expect(update.events).toEqual([
        expect.objectContaining({
          type: 'feature-updated',
          feature: expect.objectContaining({ name: 'large-0042', enabled: false }),
        }),
      ]);
    } finally {
      req.destroy();
    }
  });
});
