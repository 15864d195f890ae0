// Unknown API tokens over real loopback HTTP, from several source addresses: one address guessing
// tokens is turned away with 429 (whatever it sends next), the others are not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from './testing/from-address.js';
import { startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ router: { authFailures: { maxFailures: 5, windowMs: 60_000 } } });
});
afterAll(() => s.close());

const get = (path: string, from: string, authorization?: string) =>
  requestFrom(s.base, 'GET', path, { from, headers: authorization ? { authorization } : {} });

describe('unknown API tokens', () => {
  it('F18: many requests with unknown tokens from one address get 429 with Retry-After, across the API', async () => {
    const guesses = [];
    for (let i = 0; i < 5; i++)
      guesses.push(await get('/api/client/features', '127.0.0.3', `default:development.guess-${i}`));
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 401, 401]);

    const limited = await get('/api/admin/projects', '127.0.0.3', '*:*.another-guess');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.body.name).toBe('TooManyRequestsError');
    expect(limited.body.message).toContain('unknown API tokens');
    // Refused before the lookup, so a valid token tells the guesser nothing either.
    expect((await get('/api/admin/projects', '127.0.0.3', s.adminToken)).status).toBe(429);
    const edge = await requestFrom(s.base, 'POST', '/edge/validate', {
      from: '127.0.0.3',
      headers: { authorization: s.adminToken },
      body: { tokens: ['default:development.guess-0'] },
    });
    expect(edge.status).toBe(429);

    // Other addresses are untouched, and requests without a token are not counted.
    expect((await get('/api/admin/projects', '127.0.0.4', s.adminToken)).status).toBe(200);
    expect((await get('/api/admin/projects', '127.0.0.5')).status).toBe(401);
    expect((await get('/health', '127.0.0.3')).status).toBe(200);
  });
});
