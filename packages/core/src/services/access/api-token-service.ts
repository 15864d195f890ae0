import type { Caller } from '../../auth/caller.js';
import { apiTokenPermission, noAccess } from '../../auth/permissions.js';
import { hasRootPermission, type Principal, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { createSecretBox } from '../../auth/secret-box.js';
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
/** A bootstrap admin secret an operator may choose (INIT_ADMIN_API_TOKENS style, not only hex). */
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

/**
 * NOT_FOUND unless the environment and every named project exist; a private project the creator
 * may not see does not exist for them either (no principal: every project is visible).
 */
async function requireScopeExists(
  tx: Repositories,
  scope: { environment: string; projects: string[] },
  principal: Principal,
) {
  if (scope.environment !== '*' && !(await tx.environments.get(scope.environment)))
    throw notFound('environment', scope.environment);
  const named = scope.projects.filter((p) => p !== '*');
  if (named.length === 0) return;
  const visibility = await projectVisibility(tx, principal);
  for (const p of named)
    if (!(await tx.projects.get(p)) || !seesProject(visibility, p)) throw notFound('project', p);
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

const TOKEN_TYPES: readonly ApiTokenType[] = ['client', 'frontend', 'admin'];

/** Whether a principal may see tokens of the type in listings (admin tokens only root Admins). */
const mayRead = (principal: Principal, type: ApiTokenType): boolean =>
  hasRootPermission(principal, apiTokenPermission('READ', type));

/**
 * The reference checks changes against the stored token's type: a caller who may change no type
 * at all is refused before the lookup (naming the client permission); otherwise the found token's
 * type decides, so Editors manage client and frontend tokens and only Admins admin tokens.
 */
function requireMayChangeAny(principal: Principal, action: 'UPDATE' | 'DELETE'): void {
  if (!TOKEN_TYPES.some((type) => hasRootPermission(principal, apiTokenPermission(action, type))))
    throw noAccess(apiTokenPermission(action, 'client'));
}

function requireMayChange(
  principal: Principal | undefined,
  action: 'UPDATE' | 'DELETE',
  token: ApiTokenRecord,
): void {
  const permission = apiTokenPermission(action, token.type);
  if (principal !== undefined && !hasRootPermission(principal, permission)) throw noAccess(permission);
}

// Never echo the secret in an error: messages end up in logs.
const tokenNotFound = () =>
  new FlagstaffError('NOT_FOUND', 'Could not find an API token with that secret.', { resource: 'API token' });

/** API tokens: issue, list, change expiry, delete; only a hash of each secret is kept. */
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
     * Every token the caller may read, with display secrets only: admin tokens are listed only to
     * root Admins and admin tokens.
     */
    async list(caller: Caller): Promise<ApiTokenView[]> {
      await deps.policy.require(caller, 'READ_CLIENT_API_TOKEN');
      return (await store.apiTokens.list())
        .filter((t) => mayRead(caller.principal, t.type))
        .map(readableView);
    },

    /** Tokens with exactly this name the caller may read (GET /api-tokens/:name); empty when none. */
    async listByName(caller: Caller, name: string): Promise<ApiTokenView[]> {
      await deps.policy.require(caller, 'READ_CLIENT_API_TOKEN');
      return (await store.apiTokens.listByName(name))
        .filter((t) => mayRead(caller.principal, t.type))
        .map(readableView);
    },

    /**
     * Issues a token (api-token-created); the response is the only place the whole secret appears.
     * Projects the caller may not see (private, not a member) are NOT_FOUND.
     */
    async create(caller: Caller, input: unknown): Promise<ApiTokenView> {
      // The permission depends on the type asked for; an unreadable type is judged as client.
      const type = (input as { type?: unknown } | null | undefined)?.type;
      const asked = apiTokenTypeSchema.safeParse(typeof type === 'string' ? type.toLowerCase() : type);
      await deps.policy.require(caller, apiTokenPermission('CREATE', asked.success ? asked.data : 'client'));
      const { actor, principal } = caller;
      const body = parseWith(createApiTokenSchema, input);
      const scope = resolveScope(body);
      return inTransaction(deps, async (tx) => {
        await requireScopeExists(tx, scope, principal);
        const secret = `${secretPrefix(scope.projects, scope.environment)}${deps.ids.randomHex(SECRET_BYTES)}`;
        const record = newRecord(secret, {
          tokenName: (body.tokenName ?? body.username)!,
          type: body.type,
          ...scope,
          expiresAt: body.expiresAt ?? null,
        });
        await insertToken(tx, actor, record);
        return apiTokenView(record, secret);
      });
    },

    /**
     * Changes when a token expires (api-token-updated); `secret` may be the whole or display secret.
     * The caller must hold UPDATE_CLIENT_API_TOKEN / UPDATE_FRONTEND_API_TOKEN / ADMIN for the
     * stored token's type.
     */
    async updateExpiry(caller: Caller, secret: string, input: unknown): Promise<ApiTokenView> {
      await deps.policy.require(caller, 'NONE');
      const { actor, principal } = caller;
      const body = parseWith(updateApiTokenSchema, input);
      requireMayChangeAny(principal, 'UPDATE');
      return changingTokens(async (tx) => {
        const before = await findToken(tx, secret);
        if (!before) throw tokenNotFound();
        requireMayChange(principal, 'UPDATE', before);
        const after: ApiTokenRecord = { ...before, expiresAt: body.expiresAt };
        await tx.apiTokens.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
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
     * the result says whether a token went. The caller must hold
     * DELETE_CLIENT_API_TOKEN / DELETE_FRONTEND_API_TOKEN / ADMIN for the stored token's type.
     */
    async delete(caller: Caller, secret: string): Promise<boolean> {
      await deps.policy.require(caller, 'NONE');
      const { actor, principal } = caller;
      requireMayChangeAny(principal, 'DELETE');
      return changingTokens(async (tx) => {
        const before = await findToken(tx, secret);
        if (!before) return false;
        requireMayChange(principal, 'DELETE', before);
        await tx.apiTokens.delete(before.secretHash);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'api-token-deleted', ...eventScope(before), preData: eventData(before) },
        ]);
        return true;
      });
    },

    /**
     * Tokens of one project (`/api/admin/projects/:p/api-tokens`): SDK tokens scoped to exactly that
     * project, which its Owners and Members with UPDATE_PROJECT manage without root token rights.
     */
    project: {
      async list(caller: Caller, project: string): Promise<{ tokens: ApiTokenView[] }> {
        await deps.policy.require(caller, 'NONE', { project });
        await requireProject(store, project);
        const own = (t: ApiTokenRecord) =>
          t.type !== 'admin' && t.projects.length === 1 && t.projects[0] === project;
        return { tokens: (await store.apiTokens.list()).filter(own).map(readableView) };
      },
      async create(caller: Caller, project: string, input: unknown): Promise<ApiTokenView> {
        const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
        const body = parseWith(createApiTokenSchema, { ...(input as object), project, projects: undefined });
        if (body.type === 'admin') throw invalid('type', 'must be client or frontend for a project token.');
        const scope = resolveScope(body);
        return inTransaction(deps, async (tx) => {
          await requireScopeExists(tx, scope, caller.principal);
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
        const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
        await changingTokens(async (tx) => {
          const before = await findToken(tx, secret);
          if (!before || before.type === 'admin' || before.projects.join() !== project)
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
          'ignoring the configured admin token: it must look like "*:*.<at least 8 letters or digits>"',
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
