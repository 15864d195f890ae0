import type { Caller } from '../../auth/caller.js';
import { apiTokenPermission } from '../../auth/permissions.js';
import { createSecretBox } from '../../auth/secret-box.js';
import { isProjectToken, tokenNoAccess } from '../../auth/token-access.js';
import {
  type ApiTokenRecord,
  type ApiTokenType,
  type ApiTokenView,
  apiTokenTypeSchema,
  createApiTokenSchema,
  updateApiTokenSchema,
} from '../../domain/api-token.js';
import { parseWith } from '../../domain/parse.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps, SYSTEM_ACTOR } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { hashSecret } from './access-service.js';
import { tokenCacheOf } from './token-cache.js';

/** 32 random bytes: the `<64 hex>` part of a secret. */
const SECRET_BYTES = 32;
/** Enough of the random part to tell tokens apart in a listing, far too little to authenticate. */
const DISPLAY_CHARS = 6;
/** A bootstrap admin secret an operator may choose (INIT_ADMIN_API_TOKENS style): at least 32 characters, no easier to guess than a generated one. */
const ADMIN_SECRET_PATTERN = /^\*:\*\.[A-Za-z0-9_-]{32,}$/;

/** The `<project>:<environment>.` prefix of a secret: `[]` stands for several projects. */
const secretPrefix = (projects: readonly string[], environment: string): string =>
  `${projects.length === 1 ? projects[0] : '[]'}:${environment}.`;

const displaySecretOf = (secret: string): string => {
  const dot = secret.indexOf('.');
  return `${secret.slice(0, dot + 1)}${secret.slice(dot + 1, dot + 1 + DISPLAY_CHARS)}…`;
};

/** The API shape of a stored token; `secret` is the display prefix unless the whole one is given. */
export function apiTokenView(token: ApiTokenRecord, secret?: string): ApiTokenView {
  return {
    secret: secret ?? token.displaySecret,
    username: token.tokenName,
    tokenName: token.tokenName,
    type: token.type,
    environment: token.environment,
    project: token.projects.length === 1 ? token.projects[0]! : '[]',
    projects: [...token.projects],
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    seenAt: token.seenAt,
    alias: token.alias,
  };
}

/** What events carry: the token without any part of its secret. */
const eventData = (token: ApiTokenRecord): Omit<ApiTokenView, 'secret'> => {
  const { secret: _secret, ...rest } = apiTokenView(token);
  return rest;
};

/** Event scope: only a single concrete project / environment is worth filtering on. */
const eventScope = (token: ApiTokenRecord) => ({
  project: token.projects.length === 1 && token.projects[0] !== '*' ? token.projects[0]! : null,
  environment: token.environment === '*' ? null : token.environment,
});

/** Scope rules of the reference: admin tokens reach everything, the others one environment. */
function resolveScope(body: {
  type: ApiTokenType;
  environment?: string | undefined;
  project?: string | undefined;
  projects?: string[] | undefined;
}): { environment: string; projects: string[] } {
  const requested = body.projects ?? (body.project ? [body.project] : undefined);
  if (body.type === 'admin') {
    if (requested && !(requested.length === 1 && requested[0] === '*'))
      throw invalid(
        body.projects ? 'projects' : 'project',
        'must be "*": admin tokens cannot be scoped to projects.',
      );
    if (body.environment !== undefined && body.environment !== '*')
      throw invalid('environment', 'must be "*": admin tokens cannot be scoped to an environment.');
    return { environment: '*', projects: ['*'] };
  }
  const environment = body.environment ?? 'development';
  if (environment === '*')
    throw invalid('environment', `cannot be "*" for a ${body.type} token; name one environment.`);
  const projects = !requested || requested.includes('*') ? ['*'] : [...new Set(requested)];
  return { environment, projects };
}

/** NOT_FOUND unless the environment and every named project exist (visibility is the policy's). */
async function requireScopeExists(tx: Repositories, scope: { environment: string; projects: string[] }) {
  if (scope.environment !== '*' && !(await tx.environments.get(scope.environment)))
    throw notFound('environment', scope.environment);
  for (const p of scope.projects) if (p !== '*' && !(await tx.projects.get(p))) throw notFound('project', p);
}

/** Finds a token by its whole secret, or by the display secret a listing shows when it is unambiguous. */
async function findToken(repos: ReadRepositories, secret: string): Promise<ApiTokenRecord | null> {
  const byHash = await repos.apiTokens.getByHash(hashSecret(secret.trim()));
  if (byHash || !secret.endsWith('…')) return byHash;
  const matches = (await repos.apiTokens.list()).filter((t) => t.displaySecret === secret);
  if (matches.length > 1)
    throw new FlagstaffError('CONFLICT', `Several API tokens show as "${secret}"; use the whole secret.`);
  return matches[0] ?? null;
}

// Never echo the secret in an error: messages end up in logs.
const tokenNotFound = () =>
  new FlagstaffError('NOT_FOUND', 'Could not find an API token with that secret.', { resource: 'API token' });

/** How token secrets are kept: sealed under a server key so the API can show them again, or not at all. */
export interface TokenSecretOptions {
  /** The server key secrets are sealed with (AES-256-GCM); without one, secrets are write-only. */
  secretKey?: string | undefined;
  /** Keep secrets write-only even with a key: listings show the masked prefix (default false). */
  writeOnly?: boolean | undefined;
}

export function createApiTokenService(deps: ServiceDeps, options: TokenSecretOptions = {}) {
  const { store } = deps;
  const box = options.secretKey && !options.writeOnly ? createSecretBox(options.secretKey) : null;
  /** A listing's view: the whole secret when it was kept and the caller may read tokens of its type. */
  const readableView = (t: ApiTokenRecord): ApiTokenView =>
    apiTokenView(t, (box && t.secretCiphertext && box.open(t.secretCiphertext)) || undefined);
  const tokens = tokenCacheOf(store);
  /** Runs a command that changes or removes a token; authentication re-reads tokens once it ends. */
  const changingTokens = async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    try {
      return await inTransaction(deps, fn);
    } finally {
      // After the commit: a lookup racing with the command cannot cache the row it replaced.
      tokens.invalidate();
    }
  };

  async function insertToken(tx: Repositories, actor: Actor, record: ApiTokenRecord): Promise<void> {
    await tx.apiTokens.insert(record);
    await writeEvents(tx, actor, record.createdAt, [
      { type: 'api-token-created', ...eventScope(record), data: eventData(record) },
    ]);
  }

  const newRecord = (
    secret: string,
    fields: Omit<ApiTokenRecord, 'secretHash' | 'displaySecret' | 'createdAt' | 'seenAt' | 'alias'>,
  ) => ({
    ...fields,
    secretHash: hashSecret(secret),
    displaySecret: displaySecretOf(secret),
    createdAt: nowIso(deps),
    seenAt: null,
    alias: null,
    secretCiphertext: box ? box.seal(secret) : null,
  });

  return {
    /**
     * Every token the caller may read (GET /api-tokens): the policy leaves out tokens of types the
     * caller may not read (admin tokens: root Admins only) and tokens reaching projects it may not
     * see; a Viewer is refused.
     */
    async list(caller: Caller): Promise<ApiTokenView[]> {
      const judge = await deps.policy.tokenAccess(caller, 'READ');
      return (await store.apiTokens.list()).filter((t) => judge(t) === 'allowed').map(readableView);
    },

    /** Tokens with exactly this name the caller may read (GET /api-tokens/:name); empty when none. */
    async listByName(caller: Caller, name: string): Promise<ApiTokenView[]> {
      const judge = await deps.policy.tokenAccess(caller, 'READ');
      return (await store.apiTokens.listByName(name)).filter((t) => judge(t) === 'allowed').map(readableView);
    },

    /**
     * Issues a token (api-token-created); the response is the only place the whole secret appears.
     * Projects the caller may not see (private, not a member) are NOT_FOUND, and `*` is only for a
     * caller who sees every project.
     */
    async create(caller: Caller, input: unknown): Promise<ApiTokenView> {
      // The permission depends on the type asked for; an unreadable type is judged as client.
      const type = (input as { type?: unknown } | null | undefined)?.type;
      const asked = apiTokenTypeSchema.safeParse(typeof type === 'string' ? type.toLowerCase() : type);
      await deps.policy.require(caller, apiTokenPermission('CREATE', asked.success ? asked.data : 'client'));
      const body = parseWith(createApiTokenSchema, input);
      const scope = resolveScope(body);
      await deps.policy.requireTokenScope(caller, scope.projects);
      return inTransaction(deps, async (tx) => {
        await requireScopeExists(tx, scope);
        const secret = `${secretPrefix(scope.projects, scope.environment)}${deps.ids.randomHex(SECRET_BYTES)}`;
        const record = newRecord(secret, {
          tokenName: (body.tokenName ?? body.username)!,
          type: body.type,
          ...scope,
          expiresAt: body.expiresAt ?? null,
        });
        await insertToken(tx, caller.actor, record);
        return apiTokenView(record, secret);
      });
    },

    /**
     * Changes when a token expires (api-token-updated); `secret` may be the whole or display secret.
     * The policy judges the stored token: its type's UPDATE permission, and a token reaching a
     * project the caller may not see is not found.
     */
    async updateExpiry(caller: Caller, secret: string, input: unknown): Promise<ApiTokenView> {
      const judge = await deps.policy.tokenAccess(caller, 'UPDATE');
      const body = parseWith(updateApiTokenSchema, input);
      return changingTokens(async (tx) => {
        const before = await findToken(tx, secret);
        const verdict = before && judge(before);
        if (!before || verdict === 'hidden') throw tokenNotFound();
        if (verdict === 'forbidden') throw tokenNoAccess('UPDATE', before, null);
        const after: ApiTokenRecord = { ...before, expiresAt: body.expiresAt };
        await tx.apiTokens.update(after);
        await writeEvents(tx, caller.actor, nowIso(deps), [
          {
            type: 'api-token-updated',
            ...eventScope(after),
            data: eventData(after),
            preData: eventData(before),
          },
        ]);
        return apiTokenView(after);
      });
    },

    /**
     * Deletes a token (api-token-deleted). Like the reference, an unknown secret is not an error;
     * the result says whether a token went. The policy judges the stored token as for updates.
     */
    async delete(caller: Caller, secret: string): Promise<boolean> {
      const judge = await deps.policy.tokenAccess(caller, 'DELETE');
      return changingTokens(async (tx) => {
        const before = await findToken(tx, secret);
        const verdict = before && judge(before);
        if (!before || verdict === 'hidden') return false;
        if (verdict === 'forbidden') throw tokenNoAccess('DELETE', before, null);
        await tx.apiTokens.delete(before.secretHash);
        await writeEvents(tx, caller.actor, nowIso(deps), [
          { type: 'api-token-deleted', ...eventScope(before), preData: eventData(before) },
        ]);
        return true;
      });
    },

    /**
     * Tokens of one project (`/api/admin/projects/:p/api-tokens`): SDK tokens scoped to exactly that
     * project, which its Owners (and Editors in open projects) manage through the project's token
     * permissions, and root token permissions reach too. A Viewer is refused.
     */
    project: {
      async list(caller: Caller, project: string): Promise<{ tokens: ApiTokenView[] }> {
        const judge = await deps.policy.tokenAccess(caller, 'READ', project);
        await requireProject(store, project);
        const readable = (t: ApiTokenRecord) => isProjectToken(t, project) && judge(t) === 'allowed';
        return { tokens: (await store.apiTokens.list()).filter(readable).map(readableView) };
      },
      async create(caller: Caller, project: string, input: unknown): Promise<ApiTokenView> {
        const actor = await deps.policy.permit(caller, 'CREATE_PROJECT_API_TOKEN', { project });
        const body = parseWith(createApiTokenSchema, { ...(input as object), project, projects: undefined });
        if (body.type === 'admin') throw invalid('type', 'must be client or frontend for a project token.');
        const scope = resolveScope(body);
        return inTransaction(deps, async (tx) => {
          await requireScopeExists(tx, scope);
          const secret = `${secretPrefix(scope.projects, scope.environment)}${deps.ids.randomHex(SECRET_BYTES)}`;
          const tokenName = (body.tokenName ?? body.username)!;
          const record = newRecord(secret, {
            tokenName,
            type: body.type,
            ...scope,
            expiresAt: body.expiresAt ?? null,
          });
          await insertToken(tx, actor, record);
          return apiTokenView(record, secret);
        });
      },
      async delete(caller: Caller, project: string, secret: string): Promise<void> {
        const actor = await deps.policy.permit(caller, 'DELETE_PROJECT_API_TOKEN', { project });
        await changingTokens(async (tx) => {
          const before = await findToken(tx, secret);
          if (!before || !isProjectToken(before, project))
            throw notFound('API token of the project', project);
          await tx.apiTokens.delete(before.secretHash);
          await writeEvents(tx, actor, nowIso(deps), [
            { type: 'api-token-deleted', ...eventScope(before), preData: eventData(before) },
          ]);
        });
      },
    },

    /**
     * First start: when no admin token exists, creates one (from `secret` when it is a well-formed
     * `*:*.…` secret, otherwise generated) and returns its secret; null when one already existed.
     */
    async ensureAdminToken(secret?: string): Promise<string | null> {
      let chosen = secret?.trim();
      if (chosen !== undefined && !ADMIN_SECRET_PATTERN.test(chosen)) {
        deps.logger.warn(
          'ignoring the configured admin token: it must look like "*:*.<at least 32 letters, digits, - or _>"',
        );
        chosen = undefined;
      }
      return inTransaction(deps, async (tx) => {
        if ((await tx.apiTokens.countAdmin()) > 0) return null;
        const value = chosen ?? `*:*.${deps.ids.randomHex(SECRET_BYTES)}`;
        const record = newRecord(value, {
          tokenName: 'admin',
          type: 'admin',
          environment: '*',
          projects: ['*'],
          expiresAt: null,
        });
        await insertToken(tx, SYSTEM_ACTOR, record);
        return value;
      });
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
