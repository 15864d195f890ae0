import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { callerOf, SYSTEM } from '../auth/caller.js';
import type { ApiTokenView } from '../domain/api-token.js';
import { createFlagstaff, type Flagstaff } from '../flagstaff.js';
import { createMemoryStore } from '../memory/index.js';
import { createApiToken } from '../services/access/api-token-operations.js';
import { writeEvents } from '../services/events/event-writer.js';
import { tokenCaller } from '../services/test-support.js';
import { defineOperation, type OperationOutput } from './define-operation.js';

async function setup() {
  const flagstaff = await createFlagstaff({ store: createMemoryStore() });
  const userCaller = async (rootRole: 'Admin' | 'Editor' | 'Viewer') => {
    const user = await flagstaff.users.create(SYSTEM, { email: `${rootRole}@example.com`, rootRole });
    return callerOf((await flagstaff.access.userPrincipal(user.id))!);
  };
  return { flagstaff, userCaller };
}

/** A write that stores a token row and its event, then fails when asked to: nothing may remain. */
const storeTokenThen = defineOperation({
  id: 'test.storeTokenThen',
  summary: 'Store a token, then maybe fail',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ name: z.string().min(1), fail: z.boolean() }),
  output: z.strictObject({ stored: z.string() }),
  run: async ({ name, fail }, { repos, actor }) => {
    await repos.apiTokens.insert({
      secretHash: `hash-${name}`,
      displaySecret: '*:*.abc…',
      tokenName: name,
      type: 'admin',
      environment: '*',
      projects: ['*'],
      expiresAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      seenAt: null,
      alias: null,
    });
    await writeEvents(repos, actor, '2026-01-01T00:00:00.000Z', [
      { type: 'api-token-created', project: null, environment: null, data: { tokenName: name } },
    ]);
    if (fail) throw new Error('the command failed after writing');
    return { stored: name };
  },
});

const tokenCount = async (flagstaff: Flagstaff) => (await flagstaff.store.apiTokens.list()).length;
const eventCount = (flagstaff: Flagstaff) => flagstaff.store.events.count({});

describe('the operation runner', () => {
  it('parses the input once and hands run the parsed, transformed value', async () => {
    const { flagstaff } = await setup();
    let parses = 0;
    const shout = defineOperation({
      id: 'test.shout',
      summary: 'Shout',
      kind: 'read',
      permission: 'NONE',
      input: z.object({
        word: z.string().transform((w) => {
          parses++;
          return w.toUpperCase();
        }),
      }),
      output: z.string(),
      run: async ({ word }) => `${word}!`,
    });
    expect(await flagstaff.run(shout, SYSTEM, { word: 'hi' })).toBe('HI!');
    expect(parses).toBe(1);
  });

  it('asks the policy before reporting a bad input: 403 for a Viewer, the property named for an Admin', async () => {
    const { flagstaff, userCaller } = await setup();
    const viewer = await userCaller('Viewer');
    const admin = await userCaller('Admin');
    const bad = { name: '', fail: false };
    await expect(flagstaff.run(storeTokenThen, viewer, bad)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(flagstaff.run(storeTokenThen, admin, bad)).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { path: 'name' },
    });
    // The permission of an invalid input is judged from the properties that did parse (admin tokens need ADMIN).
    await expect(
      flagstaff.run.unknown(createApiToken, viewer, { type: 'ADMIN', tokenName: 7 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', details: { permission: 'ADMIN' } });
    expect(await tokenCount(flagstaff)).toBe(0);
  });

  it('runs a write in one transaction: a failing run leaves nothing stored, not even its event', async () => {
    const { flagstaff } = await setup();
    const tokens = await tokenCount(flagstaff);
    const events = await eventCount(flagstaff);
    await expect(flagstaff.run(storeTokenThen, SYSTEM, { name: 'gone', fail: true })).rejects.toThrow(
      'the command failed after writing',
    );
    expect(await tokenCount(flagstaff)).toBe(tokens);
    expect(await eventCount(flagstaff)).toBe(events);
    const result = await flagstaff.run(storeTokenThen, SYSTEM, { name: 'kept', fail: false });
    expectTypeOf(result).toEqualTypeOf<{ stored: string }>();
    expect(result).toEqual({ stored: 'kept' });
    expect(await tokenCount(flagstaff)).toBe(tokens + 1);
    expect(await eventCount(flagstaff)).toBe(events + 1);
  });

  it('runs a read on the store itself, outside any transaction', async () => {
    const { flagstaff } = await setup();
    const where = defineOperation({
      id: 'test.where',
      summary: 'Where does a read run',
      kind: 'read',
      permission: 'NONE',
      input: z.object({}),
      output: z.boolean(),
      run: async (_input, { repos }) => repos === flagstaff.store,
    });
    expect(await flagstaff.run(where, SYSTEM, {})).toBe(true);
  });

  it('prepares a write outside its transaction, once the policy allowed it and the input is valid', async () => {
    const { flagstaff, userCaller } = await setup();
    const seen: string[] = [];
    const prepared = defineOperation({
      id: 'test.prepared',
      summary: 'Slow work first, then the transaction',
      kind: 'write',
      permission: 'ADMIN',
      input: z.object({ name: z.string().min(1) }),
      output: z.strictObject({ inTransaction: z.boolean(), prepared: z.string() }),
      prepare: async ({ name }, { repos }) => {
        seen.push(name);
        if (name === 'refuse') throw new Error('refused before the transaction');
        return { upper: name.toUpperCase(), onStore: repos === flagstaff.store };
      },
      run: async (_input, { repos, prepared }) => {
        expectTypeOf(prepared).toEqualTypeOf<{ upper: string; onStore: boolean }>();
        const onTransaction = (repos as unknown) !== flagstaff.store;
        return { inTransaction: onTransaction && prepared.onStore, prepared: prepared.upper };
      },
    });
    expect(await flagstaff.run(prepared, SYSTEM, { name: 'ann' })).toEqual({
      inTransaction: true,
      prepared: 'ANN',
    });
    await expect(flagstaff.run(prepared, await userCaller('Viewer'), { name: 'bob' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.run(prepared, SYSTEM, { name: '' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(flagstaff.run(prepared, SYSTEM, { name: 'refuse' })).rejects.toThrow(
      'refused before the transaction',
    );
    // Neither the refused caller nor the invalid input got as far as `prepare`.
    expect(seen).toEqual(['ann', 'refuse']);
  });

  it('refuses an anonymous caller unless the operation is public', async () => {
    const { flagstaff } = await setup();
    const anonymous = callerOf({ kind: 'anonymous', name: 'anonymous' });
    const open = defineOperation({
      id: 'test.open',
      summary: 'Open to all',
      kind: 'read',
      permission: 'PUBLIC',
      input: z.object({}),
      output: z.literal('ok'),
      run: async () => 'ok' as const,
    });
    expect(await flagstaff.run(open, anonymous, {})).toBe('ok');
    await expect(flagstaff.run(storeTokenThen, anonymous, { name: 'x', fail: false })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('judges a { families } rule by the caller: an SDK token of a family named for its own API, anyone else as an admin', async () => {
    const { flagstaff, userCaller } = await setup();
    const families = defineOperation({
      id: 'test.families',
      summary: 'Client tokens or Admins',
      kind: 'read',
      permission: { families: { client: 'NONE', admin: 'ADMIN' } },
      input: z.object({}),
      output: z.literal('ok'),
      run: async () => 'ok' as const,
    });
    expect(await flagstaff.run(families, tokenCaller('client', 'production', ['shop']), {})).toBe('ok');
    expect(await flagstaff.run(families, tokenCaller('admin'), {})).toBe('ok');
    expect(await flagstaff.run(families, await userCaller('Admin'), {})).toBe('ok');
    await expect(flagstaff.run(families, tokenCaller('frontend'), {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.run(families, await userCaller('Editor'), {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { permission: 'ADMIN' },
    });
  });

  it("runs a write's committed hook after the commit, with the output, and never for a failed write", async () => {
    const { flagstaff } = await setup();
    const seen: { output: unknown; tokens: number }[] = [];
    const hooked = defineOperation({
      ...storeTokenThen,
      id: 'test.hooked',
      committed: async (output) => {
        seen.push({ output, tokens: await tokenCount(flagstaff) });
      },
    });
    await expect(flagstaff.run(hooked, SYSTEM, { name: 'gone', fail: true })).rejects.toThrow();
    expect(seen).toEqual([]);
    await flagstaff.run(hooked, SYSTEM, { name: 'kept', fail: false });
    expect(seen).toEqual([{ output: { stored: 'kept' }, tokens: 1 }]);
  });

  it('types what the in-process API returns from the output schema', () => {
    expectTypeOf<OperationOutput<typeof storeTokenThen>>().toEqualTypeOf<{ stored: string }>();
    expectTypeOf<Awaited<ReturnType<Flagstaff['apiTokens']['create']>>['secret']>().toEqualTypeOf<string>();
  });

  it('serves the typed in-process calls docs/embedding.md shows', async () => {
    const { flagstaff } = await setup();
    await flagstaff.projects.create(SYSTEM, { id: 'checkout', name: 'Checkout' });
    const token = await flagstaff.apiTokens.create(SYSTEM, {
      tokenName: 'checkout-service',
      type: 'client',
      environment: 'production',
      projects: ['checkout'],
    });
    expectTypeOf(token).toEqualTypeOf<ApiTokenView>();
    expect(token.secret).toMatch(/^checkout:production\.[0-9a-f]{64}$/);
    await expect(
      // @ts-expect-error `type` must be a string; the runner refuses it too (VALIDATION)
      flagstaff.apiTokens.create(SYSTEM, { tokenName: 'x', type: 1 }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'type' } });
    const same = await flagstaff.run(createApiToken, SYSTEM, { tokenName: 'edge', type: 'frontend' });
    expect(same).toMatchObject({ type: 'frontend', environment: 'development', projects: ['*'] });
  });

  it('runs a command with its own transactions: each commits on its own, a later failure keeps the earlier', async () => {
    const { flagstaff } = await setup();
    const twoSteps = defineOperation({
      id: 'test.twoSteps',
      summary: 'Store a token, then store another or fail',
      kind: 'command',
      permission: 'ADMIN',
      input: z.object({ name: z.string(), fail: z.boolean() }),
      output: z.strictObject({ stored: z.number() }),
      run: async ({ name, fail }, { repos, transaction, runner, caller }) => {
        // Reads run on the store; each write opens its transaction; other operations run through the runner.
        expect(repos).toBe(flagstaff.store);
        await runner(storeTokenThen, caller, { name: `${name}-1`, fail: false });
        await transaction((tx) => tx.settings.set('test.step', { done: name }));
        if (fail) throw new Error('the second step failed');
        await runner(storeTokenThen, caller, { name: `${name}-2`, fail: false });
        return { stored: 2 };
      },
    });
    const tokens = await tokenCount(flagstaff);
    await expect(flagstaff.run(twoSteps, SYSTEM, { name: 'a', fail: true })).rejects.toThrow(
      'the second step failed',
    );
    expect(await tokenCount(flagstaff)).toBe(tokens + 1);
    expect(await flagstaff.store.settings.get('test.step')).toEqual({ done: 'a' });
    expect(await flagstaff.run(twoSteps, SYSTEM, { name: 'b', fail: false })).toEqual({ stored: 2 });
    expect(await tokenCount(flagstaff)).toBe(tokens + 3);
  });

  it('judges a command as a write: 403 before 400, the actor, maintenance mode (unless it runs during it)', async () => {
    const { flagstaff, userCaller } = await setup();
    const viewer = await userCaller('Viewer');
    const admin = await userCaller('Admin');
    const actorOf = (duringMaintenance: boolean) =>
      defineOperation({
        id: 'test.actorOf',
        summary: 'Who acts',
        kind: 'command',
        permission: 'ADMIN',
        ...(duringMaintenance && { duringMaintenance: true as const }),
        input: z.object({ n: z.number() }),
        output: z.string(),
        run: async (_input, { actor }) => actor.name,
      });
    const command = actorOf(false);
    await expect(flagstaff.run.unknown(command, viewer, { n: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.run.unknown(command, admin, { n: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { path: 'n' },
    });
    expect(await flagstaff.run(command, admin, { n: 1 })).toBe(admin.actor.name);
    await flagstaff.maintenance.set(admin, { enabled: true });
    await expect(flagstaff.run(command, admin, { n: 1 })).rejects.toMatchObject({ code: 'MAINTENANCE' });
    expect(await flagstaff.run(actorOf(true), admin, { n: 1 })).toBe(admin.actor.name);
    await expect(flagstaff.run(actorOf(true), viewer, { n: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await flagstaff.maintenance.set(admin, { enabled: false });
    expect(await flagstaff.run(command, admin, { n: 1 })).toBe(admin.actor.name);
  });

  it('does not compile an operation without a permission', () => {
    // @ts-expect-error `permission` is required: an open operation says 'PUBLIC'.
    defineOperation({
      id: 'test.noPermission',
      summary: 'Forgot who may',
      kind: 'read',
      input: z.object({}),
      output: z.null(),
      run: async () => null,
    });
    // @ts-expect-error a command needs a permission too.
    defineOperation({
      id: 'test.noPermissionCommand',
      summary: 'Forgot who may',
      kind: 'command',
      input: z.object({}),
      output: z.null(),
      run: async (_input, { transaction }) => transaction(async () => null),
    });
  });
});
