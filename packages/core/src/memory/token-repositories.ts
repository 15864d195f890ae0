import type { ApiTokenRecord } from '../domain/api-token.js';
import { conflict, FlagstaffError } from '../errors.js';
import type { ApiTokenRepository, SignupTokenRepository } from '../ports/access-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, compareTime, type Sync, sorted } from './support.js';

const tokenOrder = by<ApiTokenRecord>(
  (a, b) => compareTime(a.createdAt, b.createdAt),
  (a, b) => compare(a.tokenName, b.tokenName),
  (a, b) => compare(a.secretHash, b.secretHash),
);

/** API tokens over a session. */
export function createApiTokenRepository(s: Session): Sync<ApiTokenRepository> {
  const tokens = s.table('apiTokens');
  return {
    list: () => sorted(tokens.rows(), tokenOrder).map(copy),
    getByHash: (secretHash) => copy(tokens.get(secretHash) ?? null),
    listByName: (tokenName) =>
      sorted(
        tokens.rows().filter((token) => token.tokenName === tokenName),
        tokenOrder,
      ).map(copy),
    insert(token) {
      if (tokens.has(token.secretHash)) {
        throw conflict(`An API token with the same secret as "${token.tokenName}" already exists.`);
      }
      tokens.set(token.secretHash, copy(token));
    },
    update(token) {
      if (!tokens.has(token.secretHash)) return false;
      tokens.set(token.secretHash, copy(token));
      return true;
    },
    delete: (secretHash) => tokens.delete(secretHash),
    markSeen(secretHashes, at) {
      for (const hash of secretHashes) {
        const token = tokens.get(hash);
        if (token) tokens.set(hash, { ...token, seenAt: at });
      }
    },
    countAdmin: () => tokens.rows().filter((token) => token.type === 'admin').length,
  };
}

/** Public signup tokens over a session. */
export function createSignupTokenRepository(s: Session): Sync<SignupTokenRepository> {
  const tokens = s.table('signupTokens');
  return {
    list: () =>
      sorted(
        tokens.rows(),
        by(
          (a, b) => compareTime(b.createdAt, a.createdAt),
          (a, b) => compare(a.name, b.name),
          (a, b) => compare(a.secret, b.secret),
        ),
      ).map(copy),
    get: (secret) => copy(tokens.get(secret) ?? null),
    insert(token) {
      // The message names the invite link, never its secret.
      if (tokens.has(token.secret)) throw conflict(`The signup token "${token.name}" already exists.`);
      const stored = copy(token);
      stored.userIds = [...new Set(stored.userIds)].sort(compare);
      tokens.set(token.secret, stored);
    },
    update(token) {
      const stored = tokens.get(token.secret);
      if (!stored) return false;
      tokens.set(token.secret, {
        ...stored,
        name: token.name,
        enabled: token.enabled,
        expiresAt: token.expiresAt,
      });
      return true;
    },
    addUser(secret, userId) {
      const stored = tokens.get(secret);
      if (!stored) throw new FlagstaffError('NOT_FOUND', 'Could not find the signup token.');
      if (stored.userIds.includes(userId)) return;
      tokens.set(secret, { ...stored, userIds: [...stored.userIds, userId].sort(compare) });
    },
  };
}
