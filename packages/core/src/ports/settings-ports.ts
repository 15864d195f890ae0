import type { FeatureLink } from '../domain/feature-link.js';
import type { PersonalAccessToken, PersonalAccessTokenRecord } from '../domain/personal-token.js';

/** Instance-wide settings by name (maintenance mode and the like), as JSON values. */
export interface SettingsRepository {
  /** The value; null when the setting was never set. */
  get(name: string): Promise<unknown>;
  set(name: string, value: unknown): Promise<void>;
}

/** Links on features; deleting a feature deletes its links. */
export interface FeatureLinkRepository {
  /** A feature's links, oldest first. */
  listForFeature(featureName: string): Promise<FeatureLink[]>;
  get(id: string): Promise<FeatureLink | null>;
  insert(link: FeatureLink): Promise<void>;
  /** Replaces url and title; false when the link does not exist. */
  update(link: FeatureLink): Promise<boolean>;
  delete(id: string): Promise<boolean>;
}

/** Personal access tokens of users. */
export interface PersonalTokenRepository {
  /** A user's tokens, oldest first. */
  listForUser(userId: number): Promise<PersonalAccessToken[]>;
  getByHash(secretHash: string): Promise<PersonalAccessTokenRecord | null>;
  insert(token: Omit<PersonalAccessTokenRecord, 'id'>): Promise<PersonalAccessToken>;
  /** Deletes one of the user's tokens; false when the user has no token with that id. */
  delete(userId: number, id: number): Promise<boolean>;
  /** Deletes every token of the user (the user is deleted); returns how many. */
  deleteForUser(userId: number): Promise<number>;
  markSeen(id: number, at: string): Promise<void>;
}
