import type { PersonalAccessToken, PersonalAccessTokenRecord } from '../domain/personal-token.js';
import type {
  FeatureLinkRepository,
  PersonalTokenRepository,
  SettingsRepository,
} from '../ports/settings-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { compare, type Sync } from './support.js';

/** Instance settings over a session. */
export function createSettingsRepository(s: Session): Sync<SettingsRepository> {
  const settings = s.table('settings');
  return {
    get: (name) => copy(settings.get(name)?.value ?? null),
    set(name, value) {
      settings.set(name, { value: copy(value) });
    },
  };
}

const view = ({ secretHash: _, ...token }: PersonalAccessTokenRecord): PersonalAccessToken => ({ ...token });

/** Personal access tokens over a session. */
export function createPersonalTokenRepository(s: Session): Sync<PersonalTokenRepository> {
  const tokens = s.table('personalTokens');
  return {
    listForUser: (userId) =>
      tokens
        .rows()
        .filter((t) => t.userId === userId)
        .sort((a, b) => compare(a.id, b.id))
        .map(view),
    getByHash: (hash) => copy(tokens.rows().find((t) => t.secretHash === hash) ?? null),
    insert(token) {
      const stored = { ...copy(token), id: s.nextId('personalTokens') };
      tokens.set(stored.id, stored);
      return view(stored);
    },
    delete(userId, id) {
      const token = tokens.get(id);
      if (!token || token.userId !== userId) return false;
      return tokens.delete(id);
    },
    deleteForUser: (userId) => tokens.deleteWhere((t) => t.userId === userId),
    markSeen(id, at) {
      const token = tokens.get(id);
      if (token) tokens.set(id, { ...token, seenAt: at });
    },
  };
}

/** Feature links over a session. */
export function createFeatureLinkRepository(s: Session): Sync<FeatureLinkRepository> {
  const links = s.table('featureLinks');
  return {
    listForFeature: (featureName) =>
      links
        .rows()
        .filter((l) => l.featureName === featureName)
        .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id))
        .map(copy),
    get: (id) => copy(links.get(id) ?? null),
    insert(link) {
      links.set(link.id, copy(link));
    },
    update(link) {
      if (!links.has(link.id)) return false;
      links.set(link.id, copy(link));
      return true;
    },
    delete: (id) => links.delete(id),
  };
}
