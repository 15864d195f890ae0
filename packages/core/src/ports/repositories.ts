import type {
  ApiTokenRepository,
  GroupRepository,
  ProjectAccessRepository,
  RoleRepository,
  SignupTokenRepository,
  UserRepository,
} from './access-ports.js';
import type { ChangeRequestRepository } from './change-request-ports.js';
import type { CommandReadRepository } from './command-read-ports.js';
import type { EventRepository } from './event-ports.js';
import type {
  DependencyRepository,
  FavoriteRepository,
  FeatureEnvironmentRepository,
  FeatureRepository,
  FeatureSearchRepository,
  StrategyRepository,
  TagRepository,
} from './feature-ports.js';
import type { AddonRepository, MetricsRepository, SignalRepository } from './integration-ports.js';
import type {
  ContextFieldRepository,
  EnvironmentRepository,
  ProjectRepository,
  SegmentRepository,
} from './project-ports.js';
import type { LoginThrottleRepository, SessionRepository } from './session-ports.js';
import type { FeatureLinkRepository, PersonalTokenRepository, SettingsRepository } from './settings-ports.js';

/** Every repository of the domain. */
export interface Repositories {
  readonly projects: ProjectRepository;
  readonly environments: EnvironmentRepository;
  readonly features: FeatureRepository;
  readonly featureEnvironments: FeatureEnvironmentRepository;
  readonly strategies: StrategyRepository;
  readonly segments: SegmentRepository;
  readonly contextFields: ContextFieldRepository;
  readonly tags: TagRepository;
  readonly dependencies: DependencyRepository;
  readonly favorites: FavoriteRepository;
  readonly events: EventRepository;
  readonly addons: AddonRepository;
  readonly apiTokens: ApiTokenRepository;
  readonly users: UserRepository;
  readonly roles: RoleRepository;
  readonly groups: GroupRepository;
  readonly projectAccess: ProjectAccessRepository;
  readonly signupTokens: SignupTokenRepository;
  readonly signals: SignalRepository;
  readonly metrics: MetricsRepository;
  readonly featureSearch: FeatureSearchRepository;
  readonly sessions: SessionRepository;
  readonly loginThrottles: LoginThrottleRepository;
  readonly settings: SettingsRepository;
  readonly personalTokens: PersonalTokenRepository;
  readonly featureLinks: FeatureLinkRepository;
  readonly commandReads: CommandReadRepository;
  readonly changeRequests: ChangeRequestRepository;
}
