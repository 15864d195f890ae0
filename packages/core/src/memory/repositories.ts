import type { Repositories } from '../ports/repositories.js';
import { READ_METHODS, type ReadRepositories } from '../ports/store.js';
import {
  createGroupRepository,
  createProjectAccessRepository,
  createRoleRepository,
  createUserRepository,
} from './access-repositories.js';
import { createChangeRequestRepository } from './change-request-repository.js';
import { createCommandReadRepository } from './command-read-repository.js';
import type { Session } from './database.js';
import { createEventRepository } from './event-repository.js';
import {
  createDependencyRepository,
  createFavoriteRepository,
  createFeatureEnvironmentRepository,
  createFeatureRepository,
  createStrategyRepository,
} from './feature-repositories.js';
import { createFeatureSearchRepository } from './feature-search-repository.js';
import { createAddonRepository, createSignalRepository } from './integration-repositories.js';
import { createMetricsRepository } from './metrics-repository.js';
import {
  createContextFieldRepository,
  createEnvironmentRepository,
  createProjectRepository,
  createSegmentRepository,
} from './project-repositories.js';
import { createLoginThrottleRepository, createSessionRepository } from './session-repositories.js';
import {
  createFeatureLinkRepository,
  createPersonalTokenRepository,
  createSettingsRepository,
} from './settings-repositories.js';
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
  featureSearch: createFeatureSearchRepository,
  sessions: createSessionRepository,
  loginThrottles: createLoginThrottleRepository,
  settings: createSettingsRepository,
  personalTokens: createPersonalTokenRepository,
  featureLinks: createFeatureLinkRepository,
  commandReads: createCommandReadRepository,
  changeRequests: createChangeRequestRepository,
};

const AREAS = Object.keys(FACTORIES) as Area[];

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

/**
 * Builds the asynchronous port, every method of which goes through `invoke`: areas and methods are
 * looked up as they are used, so a method added to a port and its memory repository needs no list.
 */
export function bindRepositories(invoke: Invoke): Repositories {
  const areas = new Map<Area, object>();
  const areaOf = (area: Area): object => {
    let bound = areas.get(area);
    if (!bound) {
      const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
      bound = new Proxy(
        {},
        {
          get(_target, method) {
            if (typeof method !== 'string') return undefined;
            let fn = methods.get(method);
            if (!fn) {
              fn = (...args) => invoke(area, method, args);
              methods.set(method, fn);
            }
            return fn;
          },
        },
      );
      areas.set(area, bound);
    }
    return bound;
  };
  const isArea = (name: PropertyKey): name is Area =>
    typeof name === 'string' && Object.hasOwn(FACTORIES, name);
  return new Proxy({} as Repositories, { get: (_target, area) => (isArea(area) ? areaOf(area) : undefined) });
}

/** The read side of the port (what a store offers outside transactions), every method through `invoke`. */
export function bindReadRepositories(invoke: Invoke): ReadRepositories {
  const out: Partial<Record<Area, Readonly<Record<string, (...args: unknown[]) => Promise<unknown>>>>> = {};
  for (const area of AREAS) {
    const methods: readonly string[] = READ_METHODS[area];
    out[area] = Object.freeze(
      Object.fromEntries(
        methods.map((method) => [method, (...args: unknown[]) => invoke(area, method, args)]),
      ),
    );
  }
  return Object.freeze(out) as ReadRepositories;
}

/** Calls a method of a synchronous repository by name. */
export function callMethod(repository: object, method: string, args: unknown[]): unknown {
  const fn = (repository as Record<string, (...args: unknown[]) => unknown>)[method];
  if (typeof fn !== 'function') throw new TypeError(`Unknown repository method "${method}".`);
  return fn(...args);
}
