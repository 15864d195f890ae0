import { describe, expect, it } from 'vitest';
import { createFlagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { alice, createTestClock, createTestFlagstaff } from '../test-support.js';
import { createSignupToken } from './signup-token-operations.js';

const inADay = '2026-01-02T00:00:00.000Z';

const eventsOf = async (
  flagstaff: Awaited<ReturnType<typeof createTestFlagstaff>>['flagstaff'],
  prefix: string,
) => (await flagstaff.store.events.search({ ascending: true })).filter((e) => e.type.startsWith(prefix));

describe('invite links', () => {
  it('creates a Viewer link with a URL under the base URL, and lists it', async () => {
    const flagstaff = await createFlagstaff({
      store: createMemoryStore(),
      clock: createTestClock(),
      baseUrl: 'https://flags.example.com/',
    });
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    expect(token.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(token).toMatchObject({
      url: `https://flags.example.com/new-user?invite=${token.secret}`,
      name: 'team',
      enabled: true,
      expiresAt: inADay,
      createdAt: '2026-01-01T00:00:00.000Z',
      createdBy: alice.actor.name,
      users: [],
      role: { id: 3, name: 'Viewer', type: 'root' },
    });
    expect(await flagstaff.signupTokens.list(alice)).toEqual([token]);
    expect(await flagstaff.signupTokens.get(alice, token.secret)).toEqual(token);
  });

  it('makes relative URLs without a base URL and refuses bad input naming the property', async () => {
    const { flagstaff } = await createTestFlagstaff();
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    expect(token.url).toBe(`/new-user?invite=${token.secret}`);
    await expect(
      flagstaff.signupTokens.create(alice, { name: 'x', expiresAt: 'tomorrow' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"expiresAt"'),
    });
    // An untyped body, as HTTP hands it over.
    await expect(
      flagstaff.run.unknown(createSignupToken, alice, { expiresAt: inADay }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"name"'),
    });
    await expect(flagstaff.signupTokens.get(alice, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('never writes the secret into events', async () => {
    const { flagstaff } = await createTestFlagstaff();
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    await flagstaff.signupTokens.update(alice, token.secret, { enabled: false });
    const events = await eventsOf(flagstaff, 'public-signup-token-');
    expect(events.map((e) => e.type)).toEqual(['public-signup-token-created', 'public-signup-token-updated']);
    expect(events[0]?.data).toMatchObject({ name: 'team', expiresAt: inADay, createdBy: alice.actor.name });
    expect(events[1]).toMatchObject({ data: { enabled: false }, preData: { enabled: true } });
    expect(JSON.stringify(events)).not.toContain(token.secret);
  });

  it('reports enabled false once expiresAt has passed, and validate refuses expired and disabled links', async () => {
    const { flagstaff, clock } = await createTestFlagstaff();
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    await expect(flagstaff.signupTokens.validate(token.secret)).resolves.toMatchObject({ enabled: true });
    clock.set('2026-01-03T00:00:00.000Z');
    expect((await flagstaff.signupTokens.get(alice, token.secret)).enabled).toBe(false);
    await expect(flagstaff.signupTokens.validate(token.secret)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('expired'),
    });
    const extended = await flagstaff.signupTokens.update(alice, token.secret, {
      expiresAt: '2026-02-01T00:00:00Z',
    });
    expect(extended).toMatchObject({ enabled: true, expiresAt: '2026-02-01T00:00:00.000Z' });
    await flagstaff.signupTokens.update(alice, token.secret, { enabled: false });
    await expect(flagstaff.signupTokens.validate(token.secret)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('disabled'),
    });
    await expect(flagstaff.signupTokens.validate('unknown')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('signing up through an invite link', () => {
  it('creates a Viewer user, links them to the token, and writes user-created and -user-added', async () => {
    const { flagstaff } = await createTestFlagstaff();
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    const user = await flagstaff.signupTokens.signup(token.secret, {
      name: 'Bob',
      email: 'bob@example.com',
      password: 'correct horse battery',
    });
    expect(user).toMatchObject({ name: 'Bob', email: 'bob@example.com', rootRole: 3, isAPI: false });
    expect(user).not.toHaveProperty('passwordHash');
    expect((await flagstaff.signupTokens.get(alice, token.secret)).users?.map((u) => u.email)).toEqual([
      'bob@example.com',
    ]);
    const stored = await flagstaff.store.users.get(user.id);
    expect(stored?.passwordHash).toMatch(/^\$scrypt\$ln=/);
    expect(stored?.passwordHash).not.toContain('correct horse');
    const types = (await flagstaff.store.events.search({ ascending: true })).map((e) => e.type);
    expect(types).toEqual(['public-signup-token-created', 'user-created', 'public-signup-token-user-added']);
    const added = (await eventsOf(flagstaff, 'public-signup-token-user-added'))[0];
    expect(added).toMatchObject({ createdBy: 'bob@example.com', data: { name: 'team', userId: user.id } });
    expect(JSON.stringify(added)).not.toContain(token.secret);
  });

  it('refuses a taken e-mail without saying so, bad input naming the property, and expired links', async () => {
    const { flagstaff, clock } = await createTestFlagstaff();
    const token = await flagstaff.signupTokens.create(alice, { name: 'team', expiresAt: inADay });
    await flagstaff.signupTokens.signup(token.secret, { email: 'bob@example.com' });
    await expect(
      flagstaff.signupTokens.signup(token.secret, { email: 'BOB@example.com' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('Could not sign up with these details'),
    });
    await expect(
      flagstaff.signupTokens.signup(token.secret, { email: 'not-an-email' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"email"'),
    });
    clock.set('2026-01-05T00:00:00.000Z');
    await expect(
      flagstaff.signupTokens.signup(token.secret, { email: 'carol@example.com' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    expect((await flagstaff.users.list(alice)).map((u) => u.email)).toEqual(['bob@example.com']);
  });
});
