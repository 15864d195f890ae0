import { expect } from 'vitest';
import { errorBody, type HttpResult } from './harness.js';

/** Request options acting as a harness user (the test server trusts its `x-test-user` header). */
export type As = { token: null; headers: Record<string, string> };
export const as = (id: number): As => ({ token: null, headers: { 'x-test-user': String(id) } });

/** A 404 NotFoundError saying `Could not find <what>.`: what a hidden resource answers, like an unknown one. */
export const expectHidden = (res: HttpResult, what: string): void => {
  expect(res.status, res.text).toBe(404);
  const body = errorBody(res);
  expect(body.name).toBe('NotFoundError');
  expect(body.message).toBe(`Could not find ${what}.`);
};
