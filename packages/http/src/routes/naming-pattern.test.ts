import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Project feature naming patterns are user-supplied regular expressions that run on every feature
 * creation, name validation and import: they run on RE2, whose matching time is linear.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// With a backtracking engine, `(a+)+` against 31 a's and a mismatch costs ~2^31 steps: over a minute
// per check, so a regression fails on the test timeout instead of passing slowly. RE2 takes microseconds.
const EVIL = '(a+)+';
const EVIL_NAME = `${'a'.repeat(31)}-`;

describe('feature naming patterns', () => {
  it('F4: a catastrophic naming pattern does not block the event loop when its example is checked', async () => {
    const res = await s.request('POST', '/api/admin/projects', {
      body: {
        id: 'evil-example',
        name: 'Evil',
        featureNaming: { pattern: `${EVIL}$`, example: `${'a'.repeat(31)}!` },
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).message).toContain('featureNaming.example');
    expect(errorBody(res).message).toContain('must match the pattern');
  });

  it('F4: features are created, validated and imported in a project with a catastrophic pattern', async () => {
    const created = await s.request('POST', '/api/admin/projects', {
      body: { id: 'evil', name: 'Evil', featureNaming: { pattern: EVIL, example: 'aaaa' } },
    });
    expect(created.status, created.text).toBe(201);
    const misnamed = await s.request('POST', '/api/admin/projects/evil/features', {
      body: { name: EVIL_NAME },
    });
    expect(misnamed.status).toBe(400);
    expect(errorBody(misnamed).message).toContain('naming pattern "(a+)+"');
    const named = await s.request('POST', '/api/admin/projects/evil/features', { body: { name: 'aaaa' } });
    expect(named.status, named.text).toBe(200);
    const validated = await s.request('POST', '/api/admin/features/validate', {
      body: { name: EVIL_NAME, projectId: 'evil' },
    });
    expect(validated.status).toBe(400);
    const imported = await s.request('POST', '/api/admin/features-batch/validate', {
      body: { project: 'evil', environment: 'development', data: { features: [{ name: EVIL_NAME }] } },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.errors).toEqual([
      { message: expect.stringContaining('naming pattern'), affectedItems: [EVIL_NAME] },
    ]);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', '(?=a)a+'],
    ['an unbalanced group', 'a)('],
    ['a trailing escape', 'a\\'],
    ['a pattern over 500 characters', 'a'.repeat(501)],
  ])('F4: a pattern RE2 cannot run (%s) is a 400 naming featureNaming.pattern', async (_, pattern) => {
    const res = await s.request('POST', '/api/admin/projects', {
      body: { id: 'refused', name: 'Refused', featureNaming: { pattern } },
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).message).toContain('featureNaming.pattern');
    expect(errorBody(res).message).toContain('RE2');
  });

  it('F4: a naming example longer than a feature name is a 400', async () => {
    const res = await s.request('POST', '/api/admin/projects', {
      body: { id: 'long', name: 'Long', featureNaming: { pattern: 'a+', example: 'a'.repeat(101) } },
    });
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toContain('featureNaming.example');
  });

  it('F4: a REGEX constraint is validated the way the evaluator runs it, on RE2', async () => {
    const V = '/api/admin/constraints/validate';
    const ok = await s.request('POST', V, {
      body: { contextName: 'userId', operator: 'REGEX', value: '^(a+)+$' },
    });
    expect(ok.status, ok.text).toBe(204);
    const lookbehind = await s.request('POST', V, {
      body: { contextName: 'userId', operator: 'REGEX', value: '(?<!a)b' },
    });
    expect(lookbehind.status).toBe(400);
    expect(errorBody(lookbehind).message).toContain('"value"');
  });
});
