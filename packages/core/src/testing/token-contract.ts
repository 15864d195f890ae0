import { describe, expect, test } from 'vitest';
import { apiToken, at, expectFailure, type StoreFactory, signupToken, user, useStore } from './fixtures.js';

/** API tokens and public signup tokens. */
export function describeTokenContract(open: StoreFactory): void {
  describe('API tokens', () => {
    const store = useStore(open);

    test('what is inserted comes back; a duplicate hash is refused', async () => {
      const client = apiToken('hash-1');
      const admin = apiToken('hash-2', {
        displaySecret: '*:*.abc',
        tokenName: 'ci admin',
        type: 'admin',
        environment: '*',
        projects: ['*'],
        expiresAt: at(9000),
        seenAt: at(5),
        alias: 'ci',
        secretCiphertext: 'v1.sealed-secret',
      });
      await store().apiTokens.insert(client);
      await store().apiTokens.insert(admin);
      expect(await store().apiTokens.getByHash('hash-1')).toEqual(client);
      expect(await store().apiTokens.getByHash('hash-2')).toEqual(admin);
      expect(await store().apiTokens.getByHash('hash-3')).toBeNull();
      await expectFailure(
        store().apiTokens.insert(apiToken('hash-1', { tokenName: 'again' })),
        'CONFLICT',
        'again',
      );
      expect((await store().apiTokens.getByHash('hash-1'))?.tokenName).toBe(client.tokenName);
    });

    test('lists by createdAt, then tokenName; listByName is exact', async () => {
      await store().apiTokens.insert(apiToken('h1', { tokenName: 'zed', createdAt: at(1) }));
      await store().apiTokens.insert(apiToken('h2', { tokenName: 'late', createdAt: at(9) }));
      await store().apiTokens.insert(apiToken('h3', { tokenName: 'abe', createdAt: at(1) }));
      await store().apiTokens.insert(
        apiToken('h4', { tokenName: 'zed', createdAt: at(2), projects: ['alpha', 'beta'] }),
      );
      expect((await store().apiTokens.list()).map((t) => t.secretHash)).toEqual(['h3', 'h1', 'h4', 'h2']);
      expect((await store().apiTokens.listByName('zed')).map((t) => t.secretHash).sort()).toEqual([
        'h1',
        'h4',
      ]);
      expect(await store().apiTokens.listByName('ze')).toEqual([]);
      expect((await store().apiTokens.getByHash('h4'))?.projects).toEqual(['alpha', 'beta']);
    });

    test('update replaces, markSeen stamps, delete removes; unknown hashes are false or ignored', async () => {
      await store().apiTokens.insert(apiToken('h1'));
      await store().apiTokens.insert(apiToken('h2'));
      const changed = apiToken('h1', { expiresAt: at(500), alias: 'renamed' });
      expect(await store().apiTokens.update(changed)).toBe(true);
      expect(await store().apiTokens.getByHash('h1')).toEqual(changed);
      expect(await store().apiTokens.update(apiToken('nope'))).toBe(false);
      expect(await store().apiTokens.getByHash('nope')).toBeNull();

      await store().apiTokens.markSeen(['h1', 'nope'], at(42));
      expect((await store().apiTokens.getByHash('h1'))?.seenAt).toBe(at(42));
      expect((await store().apiTokens.getByHash('h2'))?.seenAt).toBeNull();
      expect(await store().apiTokens.getByHash('nope')).toBeNull();

      expect(await store().apiTokens.delete('h1')).toBe(true);
      expect(await store().apiTokens.delete('h1')).toBe(false);
      expect((await store().apiTokens.list()).map((t) => t.secretHash)).toEqual(['h2']);
    });

    test('countAdmin counts admin tokens only', async () => {
      expect(await store().apiTokens.countAdmin()).toBe(0);
      await store().apiTokens.insert(apiToken('h1', { type: 'admin' }));
      await store().apiTokens.insert(apiToken('h2', { type: 'client' }));
      await store().apiTokens.insert(apiToken('h3', { type: 'frontend' }));
      await store().apiTokens.insert(apiToken('h4', { type: 'admin' }));
      expect(await store().apiTokens.countAdmin()).toBe(2);
    });
  });

  describe('signup tokens', () => {
    const store = useStore(open);

    test('what is inserted comes back; lists newest first', async () => {
      const older = signupToken('s-old', { createdAt: at(1) });
      const newer = signupToken('s-new', {
        name: 'Team invite',
        enabled: false,
        createdAt: at(5),
        createdBy: 'admin',
        roleId: 2,
      });
      await store().signupTokens.insert(older);
      await store().signupTokens.insert(newer);
      expect(await store().signupTokens.get('s-old')).toEqual(older);
      expect(await store().signupTokens.get('s-new')).toEqual(newer);
      expect(await store().signupTokens.get('s-none')).toBeNull();
      expect((await store().signupTokens.list()).map((t) => t.secret)).toEqual(['s-new', 's-old']);
    });

    // The port documents no conflict here; a duplicate secret is a primary-key clash in every store.
    test('refuses a duplicate secret', async () => {
      await store().signupTokens.insert(signupToken('s1', { name: 'first' }));
      await expectFailure(store().signupTokens.insert(signupToken('s1', { name: 'second' })), 'CONFLICT');
      expect((await store().signupTokens.get('s1'))?.name).toBe('first');
    });

    test('update changes name, enabled and expiresAt only', async () => {
      const original = signupToken('s1', { createdBy: 'admin', roleId: 3 });
      await store().signupTokens.insert(original);
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      await store().signupTokens.addUser('s1', ann, at(2));
      const attempt = {
        ...original,
        name: 'renamed',
        enabled: false,
        expiresAt: at(99),
        createdAt: at(50),
        createdBy: 'someone else',
        roleId: 1,
        userIds: [],
      };
      expect(await store().signupTokens.update(attempt)).toBe(true);
      expect(await store().signupTokens.get('s1')).toEqual({
        ...original,
        name: 'renamed',
        enabled: false,
        expiresAt: at(99),
        userIds: [ann],
      });
      expect(await store().signupTokens.update(signupToken('s-none'))).toBe(false);
      expect(await store().signupTokens.get('s-none')).toBeNull();
    });

    test('addUser records who signed up with the token', async () => {
      await store().signupTokens.insert(signupToken('s1'));
      await store().signupTokens.insert(signupToken('s2'));
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const bob = (await store().users.insert(user({ username: 'bob' }))).id;
      await store().signupTokens.addUser('s1', ann, at(1));
      await store().signupTokens.addUser('s1', bob, at(2));
      expect((await store().signupTokens.get('s1'))?.userIds).toEqual([ann, bob]);
      expect((await store().signupTokens.get('s2'))?.userIds).toEqual([]);
    });
  });
}
