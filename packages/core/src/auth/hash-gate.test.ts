import { describe, expect, it } from 'vitest';
import { isFlagstaffError } from '../errors.js';
import { createHashGate } from './hash-gate.js';

/** A hash that finishes when the test says so. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { finish, hash: () => done };
}

const refusal = async (run: Promise<unknown>) => {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isFlagstaffError(error, 'RATE_LIMITED'))
    throw new Error(`expected RATE_LIMITED, got ${String(error)}`);
  return error;
};

describe('the hash gate', () => {
  it('F8: refuses a client past its share at once, with a Retry-After, while others still get slots', async () => {
    const gate = createHashGate({ maxInFlight: 4, maxQueued: 0, maxPerClient: 2 });
    const held = [pending(), pending()];
    const running = held.map((h) => gate.run('203.0.113.1', h.hash));
    const error = await refusal(gate.run('203.0.113.1', async () => 'never'));
    expect(error.details?.retryAfterSeconds).toBe(1);
    expect(error.message).toContain('your address');
    expect(await gate.run('198.51.100.7', async () => 'other client')).toBe('other client');
    for (const h of held) h.finish();
    await Promise.all(running);
    expect(await gate.run('203.0.113.1', async () => 'free again')).toBe('free again');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('F8: queues past the running bound, then refuses past the queue', async () => {
    const gate = createHashGate({ maxInFlight: 1, maxQueued: 1, maxPerClient: 5 });
    const first = pending();
    const order: string[] = [];
    const a = gate.run('a', async () => {
      await first.hash();
      order.push('a');
    });
    const b = gate.run('b', async () => {
      order.push('b');
    });
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    const error = await refusal(gate.run('c', async () => undefined));
    expect(error.message).toContain('busy');
    first.finish();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('applies only the overall bound to callers without an address', async () => {
    const gate = createHashGate({ maxInFlight: 3, maxQueued: 0, maxPerClient: 1 });
    const held = [pending(), pending(), pending()];
    const running = held.map((h) => gate.run(undefined, h.hash));
    await refusal(gate.run(null, async () => undefined));
    for (const h of held) h.finish();
    await Promise.all(running);
  });

  it('frees the slot when a hash throws', async () => {
    const gate = createHashGate({ maxInFlight: 1, maxQueued: 0, maxPerClient: 1 });
    await expect(gate.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('a', async () => 1)).toBe(1);
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => createHashGate({ maxInFlight: 0 })).toThrow('maxInFlight');
    expect(() => createHashGate({ maxPerClient: 1.5 })).toThrow('maxPerClient');
    expect(() => createHashGate({ maxQueued: -1 })).toThrow('maxQueued');
  });
});
