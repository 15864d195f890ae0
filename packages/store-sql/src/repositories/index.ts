import type { Repositories } from '@flagstaff/core';
import type { RepoContext } from '../context.js';
import { createAddonRepository } from './addon-repository.js';
import { createApiTokenRepository } from './api-token-repository.js';
import { createChangeRequestRepository } from './change-request-repository.js';
import { createCommandReadRepository } from './command-read-repository.js';
import { createContextFieldRepository } from './context-field-repository.js';
import { createDependencyRepository } from './dependency-repository.js';
import { createEnvironmentRepository } from './environment-repository.js';
import { createEventRepository } from './event-repository.js';
import { createFavoriteRepository } from './favorite-repository.js';
import { createFeatureEnvironmentRepository } from './feature-environment-repository.js';
import { createFeatureRepository } from './feature-repository.js';
import { createFeatureSearchRepository } from './feature-search-repository.js';
import { createGroupRepository } from './group-repository.js';
import { createMetricsRepository } from './metrics-repository.js';
import { createProjectAccessRepository } from './project-access-repository.js';
import { createProjectRepository } from './project-repository.js';
import { createRoleRepository } from './role-repository.js';
import { createSegmentRepository } from './segment-repository.js';
import { createLoginThrottleRepository, createSessionRepository } from './session-repository.js';
import {
  createFeatureLinkRepository,
  createPersonalTokenRepository,
  createSettingsRepository,
} from './settings-repository.js';
import { createSignalRepository } from './signal-repository.js';
import { createSignupTokenRepository } from './signup-token-repository.js';
import { createStrategyRepository } from './strategy-repository.js';
import { createTagRepository } from './tag-repository.js';
import { createUserRepository } from './user-repository.js';

/** The factory of each repository area, so a transaction can create only the areas it uses. */
export const repositoryFactories: { [A in keyof Repositories]: (ctx: RepoContext) => Repositories[A] } = {
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

/** Every repository over one handle (the store's connection pool or one transaction). */
export function createRepositories(ctx: RepoContext): Repositories {
  return {
    projects: createProjectRepository(ctx),
    environments: createEnvironmentRepository(ctx),
    features: createFeatureRepository(ctx),
    featureEnvironments: createFeatureEnvironmentRepository(ctx),
    strategies: createStrategyRepository(ctx),
    segments: createSegmentRepository(ctx),
    contextFields: createContextFieldRepository(ctx),
    tags: createTagRepository(ctx),
    dependencies: createDependencyRepository(ctx),
    favorites: createFavoriteRepository(ctx),
    events: createEventRepository(ctx),
    addons: createAddonRepository(ctx),
    apiTokens: createApiTokenRepository(ctx),
    users: createUserRepository(ctx),
    roles: createRoleRepository(ctx),
    groups: createGroupRepository(ctx),
    projectAccess: createProjectAccessRepository(ctx),
    signupTokens: createSignupTokenRepository(ctx),
    signals: createSignalRepository(ctx),
    metrics: createMetricsRepository(ctx),
    featureSearch: createFeatureSearchRepository(ctx),
    sessions: createSessionRepository(ctx),
    loginThrottles: createLoginThrottleRepository(ctx),
    settings: createSettingsRepository(ctx),
    personalTokens: createPersonalTokenRepository(ctx),
    featureLinks: createFeatureLinkRepository(ctx),
    commandReads: createCommandReadRepository(ctx),
    changeRequests: createChangeRequestRepository(ctx),
  };
}
