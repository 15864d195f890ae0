import type { Repositories } from '../ports/repositories.js';
import {
  createGroupRepository,
  createProjectAccessRepository,
  createRoleRepository,
  createUserRepository,
} from './access-repositories.js';
import { createDatabase, openSession, type Session } from './database.js';
import { createEventRepository } from './event-repository.js';
import {
  createDependencyRepository,
  createFavoriteRepository,
  createFeatureEnvironmentRepository,
  createFeatureRepository,
  createStrategyRepository,
} from './feature-repositories.js';
import { createAddonRepository, createSignalRepository } from './integration-repositories.js';
import { createMetricsRepository } from './metrics-repository.js';
import {
  createContextFieldRepository,
  createEnvironmentRepository,
  createProjectRepository,
  createSegmentRepository,
} from './project-repositories.js';
import type { Sync } from './support.js';
import { createTagRepository } from './tag-repository.js';
import { createApiTokenRepository, createSignupTokenRepository } from './token-repositories.js';

export type Area = keyof Repositories;

/** The synchronous repositories of one session. */
export type SyncRepositories = { [A in Area]: Sync<Repositories[A]> };

const FACTORIES: { [A in Area]: (s: Session) => SyncRepositories[A] } = {
  projects: createProjectRepository,
  environments: createEnvironmentRepository,
  features: createFeatureRepository,
  featureEnvironments: createFeatureEnvironmentRepository,
  strategies: createStrategyRepository,
  segments: createSegmentRepository,
  contextFields: createContextFieldRepository,
  tags: createTagRepository,
  dependencies: createDependencyRepository,
  favorites: createFavoriteRepository,
  events: createEventRepository,
  addons: createAddonRepository,
  apiTokens: createApiTokenRepository,
  users: createUserRepository,
  roles: createRoleRepository,
  groups: createGroupRepository,
  projectAccess: createProjectAccessRepository,
  signupTokens: createSignupTokenRepository,
  signals: createSignalRepository,
  metrics: createMetricsRepository,
};

const AREAS = Object.keys(FACTORIES) as Area[];

// Method names come from the factories themselves, so a method added to a port and its memory
// repository is bound without a second list to keep in step.
const probe = openSession(createDatabase());
const METHODS = new Map<Area, string[]>(AREAS.map((area) => [area, Object.keys(FACTORIES[area](probe))]));

/** The synchronous repositories over a session, each built on first use. */
export function sessionRepositories(session: Session): <A extends Area>(area: A) => SyncRepositories[A] {
  const built = new Map<Area, unknown>();
  return <A extends Area>(area: A): SyncRepositories[A] => {
    let repository = built.get(area) as SyncRepositories[A] | undefined;
    if (!repository) {
      repository = FACTORIES[area](session);
      built.set(area, repository);
    }
    return repository;
  };
}

/** Runs one repository call: which area, which method, with which arguments. */
export type Invoke = (area: Area, method: string, args: unknown[]) => Promise<unknown>;

/** Builds the asynchronous port, every method of which goes through `invoke`. */
export function bindRepositories(invoke: Invoke): Repositories {
  const entries = AREAS.map((area) => {
    const methods = METHODS.get(area) ?? [];
    const repository = Object.fromEntries(
      methods.map((method) => [method, (...args: unknown[]) => invoke(area, method, args)]),
    );
    return [area, Object.freeze(repository)];
  });
  return Object.freeze(Object.fromEntries(entries)) as unknown as Repositories;
}

/** Calls a method of a synchronous repository by name. */
export function callMethod(repository: object, method: string, args: unknown[]): unknown {
  const fn = (repository as Record<string, (...args: unknown[]) => unknown>)[method];
  if (typeof fn !== 'function') throw new TypeError(`Unknown repository method "${method}".`);
  return fn(...args);
}
