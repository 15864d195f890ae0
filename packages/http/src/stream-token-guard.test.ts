import { describe, expect, it } from 'vitest';
import { createStreamTokenGuard } from './stream-token-guard.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** Token states the test changes by hand; `notify` stands for a store notice. */
function fakeAccess() {
  const states = new Map<string, { expiresAt: string | null } | null>();
  const listeners = new Set<() => void>();
  return {
    states,
    notify: () => {
      for (const l of listeners) l();
    },
    listening: () => listeners.size,
    access: {
      tokenState: async (hash: string) => states.get(hash) ?? null,
      onTokensChanged: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('the stream token guard', () => {
  it('F5: revokes a deleted token on a notice, or on the next recheck when no notice comes', async () => {
    const fake = fakeAccess();
    const revoked: string[] = [];
    const guard = createStreamTokenGuard(fake.access, (h) => revoked.push(h), quiet);
    fake.states.set('a', { expiresAt: null });
    fake.states.set('b', { expiresAt: null });
    expect(await guard.add('a')).toBe(true);
    expect(await guard.add('b')).toBe(true);
    expect(await guard.add('gone')).toBe(false);
    fake.states.set('a', null);
    fake.notify();
    await settle();
    expect(revoked).toEqual(['a']);
    guard.remove('a');
    // No notice (another process on one SQLite file): the keep-alive recheck finds it.
    fake.states.set('b', null);
    guard.recheck();
    await settle();
    expect(revoked).toEqual(['a', 'b']);
    guard.remove('b');
    expect(fake.listening()).toBe(0);
  });

  it('F5: revokes a token when it expires, and follows a changed expiry', async () => {
    const fake = fakeAccess();
    const revoked: string[] = [];
    const guard = createStreamTokenGuard(fake.access, (h) => revoked.push(h), quiet);
    const soon = new Date(Date.now() + 100).toISOString();
    fake.states.set('t', { expiresAt: soon });
    expect(await guard.add('t')).toBe(true);
    // Extended before it expires: the notice re-arms the timer for the new time.
    const later = new Date(Date.now() + 400).toISOString();
    fake.states.set('t', { expiresAt: later });
    fake.notify();
    await new Promise((r) => setTimeout(r, 200));
    expect(revoked).toEqual([]);
    fake.states.set('t', null);
    await new Promise((r) => setTimeout(r, 400));
    expect(revoked).toEqual(['t']);
    guard.remove('t');
  });
});
