import { describe, expect, it } from 'vitest';
import { callerOf } from '../../auth/caller.js';
import { createFlagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import type { Store } from '../../ports/store.js';
import { withWriteTransactions } from '../../testing/write-transactions.js';
import { alice } from '../test-support.js';

const KEY = 'a'.repeat(64);

async function start(options: { secretKey?: string; tokenSecretsWriteOnly?: boolean }, store?: Store) {
  return createFlagstaff({ store: store ?? createMemoryStore(), ...options });
}

describe('API token secrets', () => {
  it('with a server key, listings give back the whole usable secret, sealed at rest', async () => {
    const store = createMemoryStore();
    const flagstaff = await start({ secretKey: KEY }, store);
    const created = await flagstaff.apiTokens.create(alice, { tokenName: 'backend', type: 'client' });
    const [listed] = await flagstaff.apiTokens.listByName(alice, 'backend');
    expect(listed!.secret).toBe(created.secret);
    expect(await flagstaff.access.authenticateToken(listed!.secret)).toMatchObject({ name: 'backend' });
    const [stored] = await store.apiTokens.listByName('backend');
    expect(stored!.secretCiphertext).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(created.secret.split('.')[1]!);
  });

  it('shows only the masked prefix without a key, in write-only mode, or under another key', async () => {
    const store = withWriteTransactions(createMemoryStore());
    const sealed = await start({ secretKey: KEY }, store);
    const created = await sealed.apiTokens.create(alice, { tokenName: 'sdk', type: 'client' });
    for (const options of [
      {},
      { secretKey: KEY, tokenSecretsWriteOnly: true },
      { secretKey: 'b'.repeat(64) },
    ]) {
      const other = await start(options, store);
      const [listed] = await other.apiTokens.listByName(alice, 'sdk');
      expect(listed!.secret).not.toBe(created.secret);
      expect(created.secret.startsWith(listed!.secret.replace('…', ''))).toBe(true);
    }
    const writeOnly = await start({ secretKey: KEY, tokenSecretsWriteOnly: true });
    await writeOnly.apiTokens.create(alice, { tokenName: 'kept-nowhere', type: 'client' });
    expect((await writeOnly.store.apiTokens.listByName('kept-nowhere'))[0]!.secretCiphertext).toBeNull();
  });

  it('gives an Editor the secrets of client tokens but never lists admin tokens to it', async () => {
    const flagstaff = await start({ secretKey: KEY });
    const client = await flagstaff.apiTokens.create(alice, { tokenName: 'c', type: 'client' });
    await flagstaff.apiTokens.create(alice, { tokenName: 'a', type: 'admin' });
    const editor = callerOf({ kind: 'user', userId: 7, name: 'ed', rootRole: 'Editor' });
    const listed = await flagstaff.apiTokens.list(editor);
    expect(listed.map((t) => [t.tokenName, t.secret])).toEqual([['c', client.secret]]);
  });

  it('refuses a key too short to be a key', async () => {
    await expect(start({ secretKey: 'short' })).rejects.toThrow(/at least 16 characters/);
  });
});
