import { describe, expect, it } from 'vitest';
import { REDACTED, redactPath } from './redact-path.js';
import { allRoutes } from './routes/index.js';

const SECRET = 'default:development.0123456789abcdef0123456789abcdef';
const INVITE = 'f3a9c1d2e4b5a6978899aabbccddeeff';

describe('redactPath', () => {
  it('F9: every route whose path carries a token has it redacted, whatever the method or what follows', () => {
    const routes = allRoutes().filter((r) => r.path.includes(':token'));
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, (_, name) => (name === 'token' ? INVITE : 'x'));
      expect(redactPath(path), route.path).not.toContain(INVITE);
      expect(redactPath(`${path}/anything?a=1`)).not.toContain(INVITE);
    }
  });

  it('F9: no route param other than :token is named like a secret (name it :token so it is redacted)', () => {
    const params = allRoutes().flatMap((r) => r.path.match(/:\w+/g) ?? []);
    // `:tokenId` is a signal token's numeric id; `:key` is OFREP's flag key (the spec's name).
    expect(
      params
        .filter((p) => /secret|password|key|hash/i.test(p) || (/token/i.test(p) && p !== ':token'))
        .sort(),
    ).toEqual([':key', ':tokenId']);
  });

  it('F9: the paths from the review, a mount prefix, doubled slashes, query strings and token-shaped segments', () => {
    expect(redactPath(`/api/admin/api-tokens/${SECRET}`)).toBe(`/api/admin/api-tokens/${REDACTED}`);
    expect(redactPath(`/invite/${INVITE}/signup`)).toBe(`/invite/${REDACTED}/signup`);
    expect(redactPath(`/api/admin/invite-link/tokens/${INVITE}`)).toBe(
      `/api/admin/invite-link/tokens/${REDACTED}`,
    );
    expect(redactPath(`/api/admin/projects/web/api-tokens/${encodeURIComponent(SECRET)}`)).toBe(
      `/api/admin/projects/web/api-tokens/${REDACTED}`,
    );
    expect(redactPath(`/flags/INVITE/${INVITE}/validate`, '/flags/')).toBe(
      `/flags/INVITE/${REDACTED}/validate`,
    );
    expect(redactPath(`//invite//${INVITE}`)).toBe(`//invite//${REDACTED}`);
    expect(redactPath(`/auth/reset/validate?token=${INVITE}`)).toBe('/auth/reset/validate');
    expect(redactPath(`/api/admin/unknown/${SECRET}/x`)).toBe(`/api/admin/unknown/${REDACTED}/x`);
    expect(redactPath('/api/admin/projects/default/features/checkout')).toBe(
      '/api/admin/projects/default/features/checkout',
    );
  });
});
