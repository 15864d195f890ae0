import { afterEach, beforeEach, expect } from 'vitest';
import type { ApiTokenRecord } from '../domain/api-token.js';
import type { ContextField } from '../domain/context-field.js';
import type { Environment } from '../domain/environment.js';
import type { EventType, NewEvent } from '../domain/event.js';
import type { FeatureEnvironmentRecord, FeatureRecord } from '../domain/feature.js';
import type { Project } from '../domain/project.js';
import type { Segment } from '../domain/segment.js';
import type { SignupTokenRecord } from '../domain/signup-token.js';
import type { FeatureStrategy } from '../domain/strategy.js';
import type { UserRecord } from '../domain/user.js';
import type { ErrorCode } from '../errors.js';
import type { Store } from '../ports/store.js';
import { type ContractStore, withWriteTransactions } from './write-transactions.js';

/** Opens a fresh, empty, migrated store; each call is isolated from every other. */
export type StoreFactory = () => Promise<Store>;

/**
 * A canonical RFC 3339 timestamp `minutes` after 2026-01-01T00:00:00.000Z. Stores return timestamps
 * exactly as `Date#toISOString` writes them (UTC, milliseconds, `Z`), so the suite compares them as
 * strings.
 */
export const at = (minutes: number): string =>
  new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();

/** Strategy ids are UUIDs, as services generate them. */
export const uuid = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Opens a store before each test of the enclosing `describe` and closes it after. */
export function useStore(open: StoreFactory): () => ContractStore {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    const store = current;
    current = undefined;
    await store?.close();
  });
  return () => {
    if (!current) throw new Error('The contract store is not open.');
    return withWriteTransactions(current);
  };
}

/** Asserts that the promise rejects with a FlagstaffError of the code whose message names `subject`. */
export async function expectFailure(
  promise: Promise<unknown>,
  code: ErrorCode,
  subject?: string,
): Promise<void> {
  const outcome = await promise.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) expect.fail(`expected a ${code} error, but the call succeeded`);
  // Compared by name rather than instanceof: an adapter may load core from its build output.
  expect(outcome.error).toMatchObject({ name: 'FlagstaffError', code });
  if (subject !== undefined) expect((outcome.error as Error).message).toContain(subject);
}

/** Sorted copy, for answers whose order the port leaves open. */
export const sortedBy = <T>(items: readonly T[], key: (item: T) => string | number): T[] =>
  [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });

/** A valid project row; tests override what they check. The same holds for the builders below. */
export const project = (id: string, overrides: Partial<Project> = {}): Project => ({
  id,
  name: `Project ${id}`,
  description: null,
  mode: 'open',
  defaultStickiness: 'default',
  featureLimit: null,
  featureNaming: { pattern: null, example: null, description: null },
  createdAt: at(0),
  updatedAt: null,
  ...overrides,
});

/** A valid environment row. */
export const environment = (name: string, overrides: Partial<Environment> = {}): Environment => ({
  name,
  type: 'development',
  enabled: true,
  protected: false,
  sortOrder: 1,
  createdAt: at(0),
  ...overrides,
});

/** A valid, live feature row. */
export const feature = (
  name: string,
  projectId: string,
  overrides: Partial<FeatureRecord> = {},
): FeatureRecord => ({
  name,
  project: projectId,
  type: 'release',
  description: null,
  stale: false,
  impressionData: false,
  createdAt: at(1),
  archivedAt: null,
  createdByUserId: null,
  lifecycle: { stage: 'initial', enteredStageAt: at(1) },
  ...overrides,
});

/** A disabled feature-environment row without variants. */
export const featureEnvironment = (
  featureName: string,
  env: string,
  overrides: Partial<FeatureEnvironmentRecord> = {},
): FeatureEnvironmentRecord => ({
  featureName,
  environment: env,
  enabled: false,
  variants: [],
  lastSeenAt: null,
  ...overrides,
});

/** A 100% flexibleRollout strategy in project `alpha`, with id `uuid(n)`. */
export const strategy = (
  n: number,
  featureName: string,
  env: string,
  overrides: Partial<FeatureStrategy> = {},
): FeatureStrategy => ({
  id: uuid(n),
  name: 'flexibleRollout',
  title: null,
  disabled: false,
  featureName,
  projectId: 'alpha',
  environment: env,
  sortOrder: 0,
  segments: [],
  constraints: [],
  variants: [],
  parameters: { rollout: '100', stickiness: 'default', groupId: featureName },
  createdAt: at(2),
  ...overrides,
});

/** A segment without constraints, ready for `segments.insert`. */
export const segment = (name: string, overrides: Partial<Omit<Segment, 'id'>> = {}): Omit<Segment, 'id'> => ({
  name,
  description: null,
  project: null,
  constraints: [],
  createdAt: at(0),
  createdBy: null,
  ...overrides,
});

/** A context field without legal values. */
export const contextField = (name: string, overrides: Partial<ContextField> = {}): ContextField => ({
  name,
  description: null,
  stickiness: false,
  sortOrder: 10,
  legalValues: [],
  createdAt: at(0),
  ...overrides,
});

/** A Viewer user with every optional field null, ready for `users.insert`. */
export const user = (overrides: Partial<Omit<UserRecord, 'id'>> = {}): Omit<UserRecord, 'id'> => ({
  name: null,
  email: null,
  username: null,
  imageUrl: null,
  rootRole: 3,
  accountType: 'User',
  loginAttempts: 0,
  emailSent: false,
  seenAt: null,
  createdAt: at(0),
  scimId: null,
  passwordHash: null,
  ...overrides,
});

/** A client token for `alpha`/development. */
export const apiToken = (secretHash: string, overrides: Partial<ApiTokenRecord> = {}): ApiTokenRecord => ({
  secretHash,
  displaySecret: 'alpha:development.abc',
  tokenName: `token-${secretHash}`,
  type: 'client',
  environment: 'development',
  projects: ['alpha'],
  expiresAt: null,
  createdAt: at(0),
  seenAt: null,
  alias: null,
  secretCiphertext: null,
  ...overrides,
});

/** An enabled Viewer invite link without users. */
export const signupToken = (
  secret: string,
  overrides: Partial<SignupTokenRecord> = {},
): SignupTokenRecord => ({
  secret,
  name: `invite ${secret}`,
  enabled: true,
  expiresAt: at(60 * 24 * 30),
  createdAt: at(0),
  createdBy: null,
  roleId: 3,
  userIds: [],
  ...overrides,
});

/** An event by admin@example.com at `at(0)` without payload. */
export const event = (type: EventType, overrides: Partial<NewEvent> = {}): NewEvent => ({
  type,
  createdBy: 'admin@example.com',
  createdByUserId: null,
  createdAt: at(0),
  ...overrides,
});

/** Inserts project `alpha` and environments `development` (sortOrder 1) and `production` (2). */
export async function seedAlpha(store: Store): Promise<void> {
  await withWriteTransactions(store).projects.insert(project('alpha'));
  await withWriteTransactions(store).environments.insert(environment('development', { sortOrder: 1 }));
  await withWriteTransactions(store).environments.insert(
    environment('production', { type: 'production', sortOrder: 2 }),
  );
}
