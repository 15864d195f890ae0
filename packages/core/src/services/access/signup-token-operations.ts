import { z } from 'zod';
import { hashPassword, validatePassword } from '../../auth/password.js';
import {
  createSignupTokenSchema,
  type SignupTokenRecord,
  type SignupTokenView,
  signupInputSchema,
  signupTokenListSchema,
  signupTokenSecretSchema,
  signupTokenViewSchema,
  updateSignupTokenInputSchema,
} from '../../domain/signup-token.js';
import { ROLES, userViewSchema } from '../../domain/user.js';
import { FlagstaffError, isFlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Clock } from '../../ports/runtime-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { insertUser } from './user-operations.js';
import { userViews } from './user-view.js';

/** 16 random bytes, like the reference's invite secrets. */
const SECRET_BYTES = 16;

// Invite secrets are credentials: errors never repeat them.
const unknownLink = () =>
  new FlagstaffError('NOT_FOUND', 'Could not find that invite link.', { resource: 'invite link' });

/** Fact 1 of the contract: a passed expiresAt always reads as disabled. */
const isActive = (deps: { clock: Clock }, t: SignupTokenRecord): boolean =>
  t.enabled && Date.parse(t.expiresAt) > deps.clock.now().getTime();

/** An invite link as the API answers it, its `url` under the instance's base URL. */
async function signupTokenView(
  deps: { clock: Clock; baseUrl?: string | undefined },
  repos: ReadRepositories,
  t: SignupTokenRecord,
): Promise<SignupTokenView> {
  const baseUrl = (deps.baseUrl ?? '').replace(/\/+$/, '');
  return {
    secret: t.secret,
    url: `${baseUrl}/new-user?invite=${t.secret}`,
    name: t.name,
    enabled: isActive(deps, t),
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    createdBy: t.createdBy,
    users: await userViews(repos, t.userIds),
    role: (await repos.roles.get(t.roleId)) ?? ROLES.Viewer,
  };
}

/** What events say about a link: everything but the secret and the URL that embeds it. */
const eventData = (deps: { clock: Clock }, t: SignupTokenRecord) => ({
  name: t.name,
  enabled: isActive(deps, t),
  expiresAt: t.expiresAt,
  createdAt: t.createdAt,
  createdBy: t.createdBy,
  roleId: t.roleId,
});

/** Every invite link, newest first (Admins). */
export const listSignupTokens = defineOperation({
  id: 'signupTokens.list',
  summary: 'List invite links',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: signupTokenListSchema,
  run: async (_input, { deps, repos }) => ({
    tokens: await Promise.all((await repos.signupTokens.list()).map((t) => signupTokenView(deps, repos, t))),
  }),
});

/** One invite link or NOT_FOUND (Admins). */
export const getSignupToken = defineOperation({
  id: 'signupTokens.get',
  summary: 'Get an invite link',
  kind: 'read',
  permission: 'ADMIN',
  input: signupTokenSecretSchema,
  output: signupTokenViewSchema,
  run: async ({ secret }, { deps, repos }) => {
    const token = await repos.signupTokens.get(secret);
    if (!token) throw unknownLink();
    return signupTokenView(deps, repos, token);
  },
});

/** Creates an invite link for the Viewer role (public-signup-token-created). */
export const createSignupToken = defineOperation({
  id: 'signupTokens.create',
  summary: 'Create an invite link',
  kind: 'write',
  permission: 'ADMIN',
  input: createSignupTokenSchema,
  output: signupTokenViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const token: SignupTokenRecord = {
      secret: deps.ids.randomHex(SECRET_BYTES),
      name: body.name,
      enabled: true,
      expiresAt: new Date(body.expiresAt).toISOString(),
      createdAt: nowIso(deps),
      createdBy: actor.name,
      roleId: ROLES.Viewer.id,
      userIds: [],
    };
    await repos.signupTokens.insert(token);
    await writeEvents(repos, actor, token.createdAt, [
      { type: 'public-signup-token-created', data: eventData(deps, token) },
    ]);
    return signupTokenView(deps, repos, token);
  },
});

/** Changes expiresAt and/or enabled (public-signup-token-updated). */
export const updateSignupToken = defineOperation({
  id: 'signupTokens.update',
  summary: 'Update an invite link',
  kind: 'write',
  permission: 'ADMIN',
  input: updateSignupTokenInputSchema,
  output: signupTokenViewSchema,
  run: async ({ secret, ...body }, { deps, repos, actor }) => {
    const before = await repos.signupTokens.get(secret);
    if (!before) throw unknownLink();
    const after: SignupTokenRecord = {
      ...before,
      expiresAt: body.expiresAt === undefined ? before.expiresAt : new Date(body.expiresAt).toISOString(),
      enabled: body.enabled ?? before.enabled,
    };
    await repos.signupTokens.update(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'public-signup-token-updated', data: eventData(deps, after), preData: eventData(deps, before) },
    ]);
    return signupTokenView(deps, repos, after);
  },
});

// Whoever holds an invite link must not learn from it which addresses or usernames have accounts.
const signupRefused = () =>
  new FlagstaffError(
    'VALIDATION',
    'Could not sign up with these details; check them, or ask an Admin of this Flagstaff for an account.',
  );

/** The link, if it can be used now: NOT_FOUND when unknown, VALIDATION when disabled or expired. */
async function requireUsable(
  deps: { clock: Clock },
  repos: ReadRepositories,
  secret: string,
): Promise<SignupTokenRecord> {
  const token = await repos.signupTokens.get(secret);
  if (!token) throw unknownLink();
  if (!token.enabled)
    throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" is disabled.`, { path: 'invite' });
  if (!isActive(deps, token))
    throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" has expired.`, { path: 'invite' });
  return token;
}

/** Whether an invite link can be used now (anyone may ask): the link, or NOT_FOUND / VALIDATION. */
export const validateSignupToken = defineOperation({
  id: 'signupTokens.validate',
  summary: 'Validate an invite link',
  kind: 'read',
  permission: 'PUBLIC',
  input: signupTokenSecretSchema,
  output: signupTokenViewSchema,
  run: async ({ secret }, { deps, repos }) =>
    signupTokenView(deps, repos, await requireUsable(deps, repos, secret)),
});

/**
 * Joins through an invite link (anyone holding it may): creates a user with the link's role
 * (user-created) and records that they used the link (public-signup-token-user-added). VALIDATION
 * naming `password` when it breaks the password rules; VALIDATION with one message that names
 * nothing when the e-mail or username is taken, so the link cannot be used to find out who has an
 * account. The password is hashed before the transaction opens.
 */
export const signupWithToken = defineOperation({
  id: 'signupTokens.signup',
  summary: 'Sign up with an invite link',
  kind: 'write',
  permission: 'PUBLIC',
  input: signupInputSchema,
  output: userViewSchema,
  prepare: async ({ password }) => {
    if (password === undefined) return null;
    validatePassword(password, 'password');
    return hashPassword(password);
  },
  run: async ({ secret, ...body }, { deps, repos, prepared: passwordHash }) => {
    const token = await requireUsable(deps, repos, secret);
    const actor: Actor = { name: body.email, userId: null };
    const at = nowIso(deps);
    if (body.username !== undefined && (await repos.users.getByUsername(body.username)))
      throw signupRefused();
    const user = await insertUser(repos, actor, at, {
      name: body.name ?? null,
      email: body.email,
      username: body.username ?? null,
      rootRole: token.roleId,
      passwordHash,
    }).catch((error: unknown) => {
      // A taken e-mail (or a username taken meanwhile) says CONFLICT naming it: say nothing.
      throw isFlagstaffError(error, 'CONFLICT') ? signupRefused() : error;
    });
    await repos.signupTokens.addUser(secret, user.id, at);
    await writeEvents(repos, { name: body.email, userId: user.id }, at, [
      {
        type: 'public-signup-token-user-added',
        data: { name: token.name, userId: user.id, email: user.email },
      },
    ]);
    return user;
  },
});
