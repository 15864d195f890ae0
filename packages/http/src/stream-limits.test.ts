// Streams over real loopback HTTP, through each adapter: a stream ends once its token is deleted or
// expires, and one token cannot hold more than its share of the stream slots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    router: { streaming: { maxConnections: 10, maxPerToken: 2, keepAliveMs: 60_000 } },
  });
});
afterAll(() => s.close());

interface OpenStream {
  status: number;
  /** Resolves true when the server ends the stream within `ms`, false when it is still open then. */
  endsWithin(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens a stream and reads its first frame (the hydration). */
async function openStream(token: string): Promise<OpenStream & { response: Response }> {
  const response = await fetch(`${s.base}/api/client/streaming`, { headers: { authorization: token } });
  const reader = response.status === 200 ? response.body?.getReader() : undefined;
  if (reader) {
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: unleash-connected');
  }
  let ended: Promise<void> | undefined;
  const drain = async () => {
    for (;;) if ((await reader!.read()).done) return;
  };
  return {
    response,
    status: response.status,
    async endsWithin(ms) {
      ended ??= drain();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      });
      const result = await Promise.race([ended.then(() => true as const), timeout]);
      clearTimeout(timer);
      return result;
    },
    async close() {
      if (reader) await reader.cancel().catch(() => undefined);
      else if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
    },
  };
}

describe('streams and their tokens', () => {
  it('F5: an open stream closes within a second of its token being deleted', async () => {
    const token = await s.token('client');
    const stream = await openStream(token);
    expect(stream.status).toBe(200);
    expect(await stream.endsWithin(300)).toBe(false);
    const deleted = await s.request('DELETE', `/api/admin/api-tokens/${encodeURIComponent(token)}`);
    expect(deleted.status).toBeLessThan(300);
    // A second is the target; the wait allows for a loaded test machine.
    expect(await stream.endsWithin(5_000)).toBe(true);
    const again = await openStream(token);
    expect(again.status).toBe(401);
    await again.close();
  });

  it('F5: an open stream closes once its token expires', async () => {
    const token = await s.token('client', { expiresAt: new Date(Date.now() + 1_500).toISOString() });
    const stream = await openStream(token);
    expect(stream.status).toBe(200);
    expect(await stream.endsWithin(300)).toBe(false);
    expect(await stream.endsWithin(8_000)).toBe(true);
    const again = await openStream(token);
    expect(again.status).toBe(401);
    await again.close();
  });

  it('F5: deleting another token leaves a stream open', async () => {
    const kept = await s.token('client');
    const other = await s.token('client');
    const stream = await openStream(kept);
    await s.request('DELETE', `/api/admin/api-tokens/${encodeURIComponent(other)}`);
    expect(await stream.endsWithin(1_000)).toBe(false);
    await stream.close();
  });

  it('F13: one token holds at most its share of the streams; the next gets 429 with a clear message', async () => {
    const greedy = await s.token('client');
    const streams = [await openStream(greedy), await openStream(greedy)];
    expect(streams.map((x) => x.status)).toEqual([200, 200]);
    const refused = await openStream(greedy);
    expect(refused.status).toBe(429);
    const body = errorBody({
      status: 429,
      headers: refused.response.headers,
      body: await refused.response.json(),
      text: '',
    });
    expect(body.name).toBe('TooManyRequestsError');
    expect(body.message).toContain('token already holds 2 streams');
    // Another token still gets a slot, and a closed stream frees one for the first token.
    const other = await openStream(await s.token('client'));
    expect(other.status).toBe(200);
    await streams[0]!.close();
    let reopened: Awaited<ReturnType<typeof openStream>> | undefined;
    for (let i = 0; i < 50 && reopened?.status !== 200; i++) {
      await reopened?.close();
      await new Promise((r) => setTimeout(r, 20));
      reopened = await openStream(greedy);
    }
    expect(reopened?.status).toBe(200);
    for (const x of [streams[1]!, other, reopened!]) await x.close();
  });
});
