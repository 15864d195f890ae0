import type { Route } from '../route.js';
import { accountRoutes } from './account.js';
import { addonRoutes } from './addons.js';
import { apiTokenRoutes } from './api-tokens.js';
import { applicationRoutes } from './applications.js';
import { backupRoutes } from './backup.js';
import { changeRequestRoutes } from './change-requests.js';
import { clientRoutes } from './client.js';
import { clientMetricsRoutes } from './client-metrics.js';
import { clientStreamRoutes } from './client-stream.js';
import { constraintRoutes } from './constraints.js';
import { definitionRoutes } from './definitions.js';
import { dependencyRoutes } from './dependencies.js';
import { environmentOrderRoutes } from './environment-order.js';
import { environmentRoutes } from './environments.js';
import { eventSearchRoutes } from './event-search.js';
import { featureEnvironmentRoutes } from './feature-environments.js';
import { featureLifecycleRoutes } from './feature-lifecycle.js';
import { featureLinkRoutes } from './feature-links.js';
import { featureSearchRoutes } from './feature-search.js';
import { featureRoutes } from './features.js';
import { groupRoutes } from './groups.js';
import { importRoutes } from './imports.js';
import { insightRoutes } from './insights.js';
import { inviteLinkRoutes } from './invite-links.js';
import { ofrepRoutes } from './ofrep.js';
import { operationRoutes } from './operations.js';
import { personalTokenRoutes } from './personal-tokens.js';
import { projectAccessRoutes } from './project-access.js';
import { projectContextRoutes } from './project-context.js';
import { projectViewRoutes } from './project-views.js';
import { projectRoutes } from './projects.js';
import { segmentRoutes } from './segments.js';
import { signalRoutes } from './signals.js';
import { strategyRoutes } from './strategies.js';
import { strategySegmentRoutes } from './strategy-segments.js';
import { tagRoutes } from './tags.js';
import { userDirectoryRoutes } from './user-directory.js';
import { userRoutes } from './users.js';

/** Every route of the router. Paths never shadow each other, so the order is only the document's. */
export const allRoutes = (): Route[] => [
  ...projectRoutes,
  ...environmentRoutes,
  ...featureRoutes,
  ...featureLifecycleRoutes,
  ...constraintRoutes,
  ...featureLinkRoutes,
  ...eventSearchRoutes,
  ...environmentOrderRoutes,
  ...strategySegmentRoutes,
  ...applicationRoutes,
  ...projectViewRoutes,
  ...projectContextRoutes,
  ...definitionRoutes,
  ...featureEnvironmentRoutes,
  ...strategyRoutes,
  ...dependencyRoutes,
  ...changeRequestRoutes,
  ...tagRoutes,
  ...segmentRoutes,
  ...insightRoutes,
  ...importRoutes,
  ...addonRoutes,
  ...apiTokenRoutes,
  ...inviteLinkRoutes,
  ...userDirectoryRoutes,
  ...userRoutes,
  ...groupRoutes,
  ...projectAccessRoutes,
  ...accountRoutes,
  ...featureSearchRoutes,
  ...signalRoutes,
  ...operationRoutes,
  ...personalTokenRoutes,
  ...clientRoutes,
  ...clientStreamRoutes,
  ...clientMetricsRoutes,
  ...ofrepRoutes,
  ...backupRoutes,
];
