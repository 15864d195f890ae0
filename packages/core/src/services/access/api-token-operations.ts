import { z } from 'zod';
import { apiTokenPermission } from '../../auth/permissions.js';
import { isProjectToken, tokenNoAccess } from '../../auth/token-access.js';
import {
  type ApiTokenRecord,
  apiTokenListSchema,
  apiTokenViewSchema,
  createApiTokenSchema,
  updateApiTokenSchema,
} from '../../domain/api-token.js';
import { invalid, notFound } from '../../errors.js';
import { defineOperation, type OperationContext } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import {
  apiTokenView,
  eventData,
  eventScope,
  findToken,
  insertToken,
  newTokenRecord,
  readableView,
  requireScopeExists,
  resolveScope,
  SECRET_BYTES,
  secretPrefix,
  tokenNotFound,
} from './api-token-records.js';
import { tokenCacheOf } from './token-cache.js';

const secretParam = z.string().min(1);
const projectParam = z.string().min(1);
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** Authentication re-reads tokens once a change to them has ended (after the commit, so a racing lookup cannot cache the replaced row). */
const forgetCachedTokens = (deps: { store: Parameters<typeof tokenCacheOf>[0] }) =>
  tokenCacheOf(deps.store).invalidate();

/** Stores a token for a valid body and returns it with its whole secret (the only time it is shown). */
async function issueToken(
  body: z.output<typeof createApiTokenSchema>,
  { deps, repos, actor }: OperationContext<'write'>,
) {
  const scope = resolveScope(body);
  await requireScopeExists(repos, scope);
  const secret = `${secretPrefix(scope.projects, scope.environment)}${deps.ids.randomHex(SECRET_BYTES)}`;
  const record = newTokenRecord(deps, deps.tokenSecrets, secret, {
    tokenName: (body.tokenName ?? body.username)!,
    type: body.type,
    ...scope,
    expiresAt: body.expiresAt ?? null,
  });
  await insertToken(repos, actor, record);
  return apiTokenView(record, secret);
}

/**
 * Every token the caller may read: the policy leaves out tokens of types it may not read (admin
 * tokens: root Admins only) and tokens reaching projects it may not see; a Viewer is refused.
 */
export const listApiTokens = defineOperation({
  id: 'apiTokens.list',
  summary: 'List API tokens',
  kind: 'read',
  permission: { tokens: 'READ' },
  input: z.object({}),
  output: apiTokenListSchema,
  run: async (_input, { deps, repos, judge }) => ({
    tokens: (await repos.apiTokens.list())
      .filter((t) => judge(t) === 'allowed')
      .map((t) => readableView(deps.tokenSecrets, t)),
  }),
});

/** Tokens with exactly this name the caller may read; empty when none. */
export const listApiTokensByName = defineOperation({
  id: 'apiTokens.listByName',
  summary: 'List API tokens by name',
  kind: 'read',
  permission: { tokens: 'READ' },
  input: z.object({ name: z.string() }),
  output: apiTokenListSchema,
  run: async ({ name }, { deps, repos, judge }) => ({
    tokens: (await repos.apiTokens.listByName(name))
      .filter((t) => judge(t) === 'allowed')
      .map((t) => readableView(deps.tokenSecrets, t)),
  }),
});

/**
 * Issues a token (api-token-created). The permission depends on the type asked for (an unreadable
 * type is judged as client); projects the caller may not see are NOT_FOUND, and `*` is only for a
 * caller who sees every project.
 */
export const createApiToken = defineOperation({
  id: 'apiTokens.create',
  summary: 'Create an API token',
  kind: 'write',
  permission: (input) => apiTokenPermission('CREATE', input.type ?? 'client'),
  guard: (body, { deps, caller }) => deps.policy.requireTokenScope(caller, resolveScope(body).projects),
  input: createApiTokenSchema,
  output: apiTokenViewSchema,
  run: issueToken,
});

/** The stored token a change is for, as the policy's judge lets the caller see it. */
async function judgedToken(
  action: 'UPDATE' | 'DELETE',
  secret: string,
  { repos, judge }: OperationContext<'write'>,
): Promise<ApiTokenRecord | null> {
  const before = await findToken(repos, secret);
  const verdict = before && judge(before);
  if (!before || verdict === 'hidden') return null;
  if (verdict === 'forbidden') throw tokenNoAccess(action, before, null);
  return before;
}

/**
 * Changes when a token expires (api-token-updated); `token` may be the whole or display secret. The
 * policy judges the stored token: its type's UPDATE permission; one reaching a project the caller
 * may not see is not found.
 */
export const updateApiTokenExpiry = defineOperation({
  id: 'apiTokens.updateExpiry',
  summary: 'Change when an API token expires',
  kind: 'write',
  permission: { tokens: 'UPDATE' },
  input: updateApiTokenSchema.extend({ token: secretParam }),
  output: apiTokenViewSchema,
  settled: forgetCachedTokens,
  run: async ({ token, expiresAt }, ctx) => {
    const before = await judgedToken('UPDATE', token, ctx);
    if (!before) throw tokenNotFound();
    const after: ApiTokenRecord = { ...before, expiresAt };
    await ctx.repos.apiTokens.update(after);
    await writeEvents(ctx.repos, ctx.actor, nowIso(ctx.deps), [
      { type: 'api-token-updated', ...eventScope(after), data: eventData(after), preData: eventData(before) },
    ]);
    return apiTokenView(after);
  },
});

/**
 * Deletes a token (api-token-deleted). Like the reference, an unknown secret is not an error; the
 * result says whether a token went. The policy judges the stored token as for updates.
 */
export const deleteApiToken = defineOperation({
  id: 'apiTokens.delete',
  summary: 'Delete an API token',
  kind: 'write',
  permission: { tokens: 'DELETE' },
  input: z.object({ token: secretParam }),
  output: z.boolean(),
  settled: forgetCachedTokens,
  run: async ({ token }, ctx) => {
    const before = await judgedToken('DELETE', token, ctx);
    if (!before) return false;
    await ctx.repos.apiTokens.delete(before.secretHash);
    await writeEvents(ctx.repos, ctx.actor, nowIso(ctx.deps), [
      { type: 'api-token-deleted', ...eventScope(before), preData: eventData(before) },
    ]);
    return true;
  },
});

/**
 * The SDK tokens scoped to exactly one project, which its Owners (and Editors in open projects)
 * manage through the project's token permissions, and root token permissions reach too.
 */
export const listProjectApiTokens = defineOperation({
  id: 'apiTokens.project.list',
  summary: "The project's own SDK tokens",
  kind: 'read',
  permission: { tokens: 'READ' },
  scope: projectScope,
  input: z.object({ project: projectParam }),
  output: apiTokenListSchema,
  run: async ({ project }, { deps, repos, judge }) => {
    await requireProject(repos, project);
    const readable = (t: ApiTokenRecord) => isProjectToken(t, project) && judge(t) === 'allowed';
    return {
      tokens: (await repos.apiTokens.list()).filter(readable).map((t) => readableView(deps.tokenSecrets, t)),
    };
  },
});

/** Issues a client or frontend token scoped to the project (project Owners may). */
export const createProjectApiToken = defineOperation({
  id: 'apiTokens.project.create',
  summary: 'Create an SDK token scoped to the project (project Owners may)',
  kind: 'write',
  permission: 'CREATE_PROJECT_API_TOKEN',
  scope: projectScope,
  input: createApiTokenSchema.safeExtend({ project: projectParam, projects: z.undefined() }),
  output: apiTokenViewSchema,
  run: async (body, ctx) => {
    if (body.type === 'admin') throw invalid('type', 'must be client or frontend for a project token.');
    return issueToken(body, ctx);
  },
});

/** Deletes one of the project's SDK tokens; a token of another scope is not found. */
export const deleteProjectApiToken = defineOperation({
  id: 'apiTokens.project.delete',
  summary: 'Delete one of the project’s SDK tokens',
  kind: 'write',
  permission: 'DELETE_PROJECT_API_TOKEN',
  scope: projectScope,
  input: z.object({ project: projectParam, token: secretParam }),
  output: z.void(),
  settled: forgetCachedTokens,
  run: async ({ project, token }, { deps, repos, actor }) => {
    const before = await findToken(repos, token);
    if (!before || !isProjectToken(before, project)) throw notFound('API token of the project', project);
    await repos.apiTokens.delete(before.secretHash);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'api-token-deleted', ...eventScope(before), preData: eventData(before) },
    ]);
  },
});

/** Every API token operation, for route tables and tools. */
export const apiTokenOperations = [
  listApiTokens,
  listApiTokensByName,
  createApiToken,
  updateApiTokenExpiry,
  deleteApiToken,
  listProjectApiTokens,
  createProjectApiToken,
  deleteProjectApiToken,
] as const;
