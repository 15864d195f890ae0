import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import {
  createdPersonalTokenSchema,
  personalTokenIdSchema,
  personalTokenInputSchema,
  personalTokenListSchema,
} from '../../domain/personal-token.js';
import { invalid, notFound } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { hashSecret } from './access-service.js';

/** Longest a personal access token may live unless configured otherwise: one year. */
export const DEFAULT_PAT_MAX_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

/** The user the runner let in (the `'USER'` permission admits signed-in users only). */
const ownerOf = (deps: OperationDeps, caller: Caller): number => deps.policy.requireUser(caller);

/** The signed-in user's personal access tokens (secrets are never listed). */
export const listPersonalTokens = defineOperation({
  id: 'personalTokens.list',
  summary: "The signed-in user's personal access tokens (secrets are never listed)",
  kind: 'read',
  permission: 'USER',
  input: z.object({}),
  output: personalTokenListSchema,
  run: async (_input, { deps, repos, caller }) => ({
    pats: await repos.personalTokens.listForUser(ownerOf(deps, caller)),
  }),
});

/**
 * Creates a token (pat-created) and answers it with its `secret`, this once. VALIDATION naming
 * `expiresAt` when it is past or beyond the lifetime limit (`personalTokenMaxLifetimeDays`).
 */
export const createPersonalToken = defineOperation({
  id: 'personalTokens.create',
  summary: 'Create a personal access token; its secret is answered this once',
  kind: 'write',
  permission: 'USER',
  input: personalTokenInputSchema,
  output: createdPersonalTokenSchema,
  run: async (body, { deps, repos, actor, caller }) => {
    const maxDays = deps.personalTokenMaxLifetimeDays ?? DEFAULT_PAT_MAX_LIFETIME_DAYS;
    const expiresAt = new Date(body.expiresAt);
    const now = deps.clock.now().getTime();
    if (expiresAt.getTime() <= now) throw invalid('expiresAt', 'must be in the future.');
    if (expiresAt.getTime() > now + maxDays * DAY_MS)
      throw invalid(
        'expiresAt',
        `must be at most ${maxDays} days from now: that is the longest a personal access token may live here.`,
      );
    const secret = `user:${deps.ids.randomHex(28)}`;
    const token = await repos.personalTokens.insert({
      secretHash: hashSecret(secret),
      userId: ownerOf(deps, caller),
      description: body.description,
      expiresAt: expiresAt.toISOString(),
      createdAt: nowIso(deps),
      seenAt: null,
    });
    await writeEvents(repos, actor, token.createdAt, [
      {
        type: 'pat-created',
        data: { id: token.id, description: token.description, expiresAt: token.expiresAt },
      },
    ]);
    return { ...token, secret };
  },
});

/** Deletes one of the caller's own tokens (pat-deleted); NOT_FOUND for anyone else's. */
export const deletePersonalToken = defineOperation({
  id: 'personalTokens.delete',
  summary: 'Delete one of your personal access tokens',
  kind: 'write',
  permission: 'USER',
  input: personalTokenIdSchema,
  output: z.void(),
  run: async ({ id }, { deps, repos, actor, caller }) => {
    const userId = ownerOf(deps, caller);
    const mine = (await repos.personalTokens.listForUser(userId)).find((t) => t.id === id);
    if (!mine || !(await repos.personalTokens.delete(userId, id)))
      throw notFound('personal access token', id);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'pat-deleted', preData: { id, description: mine.description, expiresAt: mine.expiresAt } },
    ]);
  },
});
