/** How API tokens are stored, shown and scoped: the parts every token operation shares. */
import type { SecretBox } from '../../auth/secret-box.js';
import type { ApiTokenRecord, ApiTokenType, ApiTokenView } from '../../domain/api-token.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { hashSecret } from './access-service.js';

/** 32 random bytes: the `<64 hex>` part of a secret. */
export const SECRET_BYTES = 32;
/** Enough of the random part to tell tokens apart in a listing, far too little to authenticate. */
const DISPLAY_CHARS = 6;
/** A bootstrap admin secret an operator may choose (INIT_ADMIN_API_TOKENS style): at least 32 characters, no easier to guess than a generated one. */
export const ADMIN_SECRET_PATTERN = /^\*:\*\.[A-Za-z0-9_-]{32,}$/;

/** The `<project>:<environment>.` prefix of a secret: `[]` stands for several projects. */
export const secretPrefix = (projects: readonly string[], environment: string): string =>
  `${projects.length === 1 ? projects[0] : '[]'}:${environment}.`;

export const displaySecretOf = (secret: string): string => {
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
export const eventData = (token: ApiTokenRecord): Omit<ApiTokenView, 'secret'> => {
  const { secret: _secret, ...rest } = apiTokenView(token);
  return rest;
};

/** Event scope: only a single concrete project / environment is worth filtering on. */
export const eventScope = (token: ApiTokenRecord) => ({
  project: token.projects.length === 1 && token.projects[0] !== '*' ? token.projects[0]! : null,
  environment: token.environment === '*' ? null : token.environment,
});

/** Scope rules of the reference: admin tokens reach everything, the others one environment. */
export function resolveScope(body: {
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
export async function requireScopeExists(
  tx: Repositories,
  scope: { environment: string; projects: string[] },
) {
  if (scope.environment !== '*' && !(await tx.environments.get(scope.environment)))
    throw notFound('environment', scope.environment);
  for (const p of scope.projects) if (p !== '*' && !(await tx.projects.get(p))) throw notFound('project', p);
}

/** Finds a token by its whole secret, or by the display secret a listing shows when it is unambiguous. */
export async function findToken(repos: ReadRepositories, secret: string): Promise<ApiTokenRecord | null> {
  const byHash = await repos.apiTokens.getByHash(hashSecret(secret.trim()));
  if (byHash || !secret.endsWith('…')) return byHash;
  const matches = (await repos.apiTokens.list()).filter((t) => t.displaySecret === secret);
  if (matches.length > 1)
    throw new FlagstaffError('CONFLICT', `Several API tokens show as "${secret}"; use the whole secret.`);
  return matches[0] ?? null;
}

// Never echo the secret in an error: messages end up in logs.
export const tokenNotFound = () =>
  new FlagstaffError('NOT_FOUND', 'Could not find an API token with that secret.', { resource: 'API token' });

/** A listing's view: the whole secret when it was kept (sealed under the server key), else its prefix. */
export const readableView = (box: SecretBox | null, t: ApiTokenRecord): ApiTokenView =>
  apiTokenView(t, (box && t.secretCiphertext && box.open(t.secretCiphertext)) || undefined);

/** Stores a new token with its api-token-created event. */
export async function insertToken(tx: Repositories, actor: Actor, record: ApiTokenRecord): Promise<void> {
  await tx.apiTokens.insert(record);
  await writeEvents(tx, actor, record.createdAt, [
    { type: 'api-token-created', ...eventScope(record), data: eventData(record) },
  ]);
}

/** The stored form of a new secret: its hash, display prefix and, with a box, the sealed secret. */
export const newTokenRecord = (
  deps: Pick<ServiceDeps, 'clock'>,
  box: SecretBox | null,
  secret: string,
  fields: Omit<ApiTokenRecord, 'secretHash' | 'displaySecret' | 'createdAt' | 'seenAt' | 'alias'>,
): ApiTokenRecord => ({
  ...fields,
  secretHash: hashSecret(secret),
  displaySecret: displaySecretOf(secret),
  createdAt: nowIso(deps),
  seenAt: null,
  alias: null,
  secretCiphertext: box ? box.seal(secret) : null,
});
