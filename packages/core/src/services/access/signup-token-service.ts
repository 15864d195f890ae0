import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword } from '../../auth/password.js';
import { parseWith } from '../../domain/parse.js';
import {
  createSignupTokenSchema,
  type SignupTokenRecord,
  type SignupTokenView,
  signupSchema,
  updateSignupTokenSchema,
} from '../../domain/signup-token.js';
import { ROLES, type UserView } from '../../domain/user.js';
import { FlagstaffError, isFlagstaffError } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { insertUser } from './user-operations.js';
import { userViews } from './user-view.js';

/** 16 random bytes, like the reference's invite secrets. */
const SECRET_BYTES = 16;

// Invite secrets are credentials: errors never repeat them.
const unknownLink = () =>
  new FlagstaffError('NOT_FOUND', 'Could not find that invite link.', { resource: 'invite link' });

// Whoever holds an invite link must not learn from it which addresses or usernames have accounts.
const signupRefused = () =>
  new FlagstaffError(
    'VALIDATION',
    'Could not sign up with these details; check them, or ask an Admin of this Flagstaff for an account.',
  );

/** Invite links (public signup tokens): whoever has one may join with the Viewer role. */
export function createSignupTokenService(deps: ServiceDeps & { baseUrl?: string | undefined }) {
  const { store } = deps;
  const baseUrl = (deps.baseUrl ?? '').replace(/\/+$/, '');

  // Fact 1 of the contract: a passed expiresAt always reads as disabled.
  const isActive = (t: SignupTokenRecord): boolean =>
    t.enabled && Date.parse(t.expiresAt) > deps.clock.now().getTime();

  async function view(repos: ReadRepositories, t: SignupTokenRecord): Promise<SignupTokenView> {
    return {
      secret: t.secret,
      url: `${baseUrl}/new-user?invite=${t.secret}`,
      name: t.name,
      enabled: isActive(t),
      expiresAt: t.expiresAt,
      createdAt: t.createdAt,
      createdBy: t.createdBy,
      users: await userViews(repos, t.userIds),
      role: (await repos.roles.get(t.roleId)) ?? ROLES.Viewer,
    };
  }

  /** What events say about a link: everything but the secret and the URL that embeds it. */
  const eventData = (t: SignupTokenRecord) => ({
    name: t.name,
    enabled: isActive(t),
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    createdBy: t.createdBy,
    roleId: t.roleId,
  });

  async function requireUsable(repos: ReadRepositories, secret: string): Promise<SignupTokenRecord> {
    const token = await repos.signupTokens.get(secret);
    if (!token) throw unknownLink();
    if (!token.enabled)
      throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" is disabled.`, { path: 'invite' });
    if (!isActive(token))
      throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" has expired.`, { path: 'invite' });
    return token;
  }

  return {
    /** Every invite link, newest first. */
    async list(caller: Caller): Promise<SignupTokenView[]> {
      await deps.policy.require(caller, 'ADMIN', {});
      return Promise.all((await store.signupTokens.list()).map((t) => view(store, t)));
    },

    /** One invite link or NOT_FOUND. */
    async get(caller: Caller, secret: string): Promise<SignupTokenView> {
      await deps.policy.require(caller, 'ADMIN', {});
      const token = await store.signupTokens.get(secret);
      if (!token) throw unknownLink();
      return view(store, token);
    },

    /** Creates an invite link for the Viewer role (public-signup-token-created). */
    async create(caller: Caller, input: unknown): Promise<SignupTokenView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(createSignupTokenSchema, input);
      return inTransaction(deps, async (tx) => {
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
        await tx.signupTokens.insert(token);
        await writeEvents(tx, actor, token.createdAt, [
          { type: 'public-signup-token-created', data: eventData(token) },
        ]);
        return view(tx, token);
      });
    },

    /** Changes expiresAt and/or enabled (public-signup-token-updated). */
    async update(caller: Caller, secret: string, input: unknown): Promise<SignupTokenView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(updateSignupTokenSchema, input);
      return inTransaction(deps, async (tx) => {
        const before = await tx.signupTokens.get(secret);
        if (!before) throw unknownLink();
        const after: SignupTokenRecord = {
          ...before,
          expiresAt: body.expiresAt === undefined ? before.expiresAt : new Date(body.expiresAt).toISOString(),
          enabled: body.enabled ?? before.enabled,
        };
        await tx.signupTokens.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'public-signup-token-updated', data: eventData(after), preData: eventData(before) },
        ]);
        return view(tx, after);
      });
    },

    /** Throws unless the link can be used now: NOT_FOUND when unknown, VALIDATION when disabled or expired. */
    async validate(secret: string): Promise<SignupTokenView> {
      return view(store, await requireUsable(store, secret));
    },

    /**
     * Joins through an invite link: creates a Viewer user (user-created) and records that they used
     * the link (public-signup-token-user-added). VALIDATION naming `password` when it breaks the
     * password rules; VALIDATION with one message that names nothing when the e-mail or username is
     * taken, so the link cannot be used to find out who has an account.
     */
    async signup(secret: string, input: unknown): Promise<UserView> {
      const body = parseWith(signupSchema, input);
      if (body.password !== undefined) validatePassword(body.password, 'password');
      // Hashing takes tens of milliseconds: done before the transaction, not while holding it.
      const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
      return inTransaction(deps, async (tx) => {
        const token = await requireUsable(tx, secret);
        const actor: Actor = { name: body.email, userId: null };
        const at = nowIso(deps);
        if (body.username !== undefined && (await tx.users.getByUsername(body.username)))
          throw signupRefused();
        const user = await insertUser(tx, actor, at, {
          name: body.name ?? null,
          email: body.email,
          username: body.username ?? null,
          rootRole: token.roleId,
          passwordHash,
        }).catch((error: unknown) => {
          // A taken e-mail (or a username taken meanwhile) says CONFLICT naming it: say nothing.
          throw isFlagstaffError(error, 'CONFLICT') ? signupRefused() : error;
        });
        await tx.signupTokens.addUser(secret, user.id, at);
        await writeEvents(tx, { name: body.email, userId: user.id }, at, [
          {
            type: 'public-signup-token-user-added',
            data: { name: token.name, userId: user.id, email: user.email },
          },
        ]);
        return user;
      });
    },
  };
}

export type SignupTokenService = ReturnType<typeof createSignupTokenService>;
