import { describe, expect, test } from 'vitest';
import type { SessionRecord } from '../domain/session.js';
import { at, expectFailure, type StoreFactory, user, useStore } from './fixtures.js';

const session = (idHash: string, userId: number, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  idHash,
  userId,
  createdAt: at(0),
  lastSeenAt: at(0),
  expiresAt: at(60),
  ip: null,
  ...overrides,
});

/** Login sessions, failed-login counters, and the user lookups login needs. */
export function describeSessionContract(open: StoreFactory): void {
  describe('sessions', () => {
    const store = useStore(open);

    test('what is inserted comes back; a duplicate hash is refused', async () => {
      const ann = await store().users.insert(user({ username: 'ann' }));
      const first = session('a'.repeat(64), ann.id, { ip: '10.0.0.1' });
      await store().sessions.insert(first);
      expect(await store().sessions.get(first.idHash)).toEqual(first);
      expect(await store().sessions.get('b'.repeat(64))).toBeNull();
      await expectFailure(store().sessions.insert(session(first.idHash, ann.id)), 'CONFLICT', 'session');
    });

    test('touch moves lastSeenAt and expiresAt; listForUser orders by createdAt', async () => {
      await store().sessions.insert(session('s2', 1, { createdAt: at(5) }));
      await store().sessions.insert(session('s1', 1, { createdAt: at(1) }));
      await store().sessions.insert(session('s3', 2));
      expect(await store().sessions.touch('s2', at(7), at(100))).toBe(true);
      expect(await store().sessions.touch('nope', at(7), at(100))).toBe(false);
      expect(await store().sessions.get('s2')).toMatchObject({ lastSeenAt: at(7), expiresAt: at(100) });
      expect((await store().sessions.listForUser(1)).map((s) => s.idHash)).toEqual(['s1', 's2']);
      expect(await store().sessions.listForUser(9)).toEqual([]);
    });

    test('delete, deleteForUser (keeping one) and deleteExpired', async () => {
      await store().sessions.insert(session('a', 1, { expiresAt: at(10) }));
      await store().sessions.insert(session('b', 1, { expiresAt: at(20) }));
      await store().sessions.insert(session('c', 1, { expiresAt: at(30) }));
      await store().sessions.insert(session('d', 2, { expiresAt: at(5) }));
      await store().sessions.insert(session('e', 2, { expiresAt: at(50) }));
      expect(await store().sessions.delete('a')).toBe(true);
      expect(await store().sessions.delete('a')).toBe(false);
      expect(await store().sessions.deleteForUser(1, 'c')).toBe(1);
      expect((await store().sessions.listForUser(1)).map((s) => s.idHash)).toEqual(['c']);
      expect(await store().sessions.deleteExpired(at(30))).toBe(2);
      expect(await store().sessions.get('c')).toBeNull();
      expect(await store().sessions.get('e')).not.toBeNull();
      expect(await store().sessions.deleteForUser(2)).toBe(1);
      expect(await store().sessions.deleteForUser(2)).toBe(0);
    });

    test("deleting a user deletes the user's sessions", async () => {
      const ann = await store().users.insert(user({ username: 'ann' }));
      const bob = await store().users.insert(user({ username: 'bob' }));
      await store().sessions.insert(session('ann-1', ann.id));
      await store().sessions.insert(session('bob-1', bob.id));
      expect(await store().users.delete(ann.id)).toBe(true);
      expect(await store().sessions.get('ann-1')).toBeNull();
      expect(await store().sessions.get('bob-1')).not.toBeNull();
    });

    test('a rolled-back transaction leaves no session behind', async () => {
      await expect(
        store().transaction(async (tx) => {
          await tx.sessions.insert(session('x', 1));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store().sessions.get('x')).toBeNull();
    });
  });

  describe('login throttles', () => {
    const store = useStore(open);

    test('put inserts then replaces; delete removes', async () => {
      const first = {
        username: 'ann@example.com',
        failures: 1,
        firstFailureAt: at(1),
        lastFailureAt: at(1),
        lockedUntil: null,
      };
      expect(await store().loginThrottles.get(first.username)).toBeNull();
      await store().loginThrottles.put(first);
      expect(await store().loginThrottles.get(first.username)).toEqual(first);
      const locked = { ...first, failures: 5, lastFailureAt: at(3), lockedUntil: at(8) };
      await store().loginThrottles.put(locked);
      expect(await store().loginThrottles.get(first.username)).toEqual(locked);
      expect(await store().loginThrottles.delete(first.username)).toBe(true);
      expect(await store().loginThrottles.delete(first.username)).toBe(false);
      expect(await store().loginThrottles.get(first.username)).toBeNull();
    });
  });

  describe('user lookups for login', () => {
    const store = useStore(open);

    test('getByUsername is exact; countWithPassword counts users with a hash', async () => {
      expect(await store().users.countWithPassword()).toBe(0);
      const ann = await store().users.insert(user({ username: 'ann', passwordHash: 'h' }));
      await store().users.insert(user({ username: 'bob' }));
      expect(await store().users.getByUsername('ann')).toEqual(ann);
      expect(await store().users.getByUsername('Ann')).toBeNull();
      expect(await store().users.getByUsername('nobody')).toBeNull();
      expect(await store().users.countWithPassword()).toBe(1);
    });
  });
}
