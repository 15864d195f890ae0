import type { Route } from '../route.js';
import { environmentRoutes } from './environments.js';
import { featureRoutes } from './features.js';
import { projectRoutes } from './projects.js';
import { tagRoutes } from './tags.js';

/** Every route of the router, in registration order (more specific paths before parameterised ones). */
export const allRoutes = (): Route[] => [
  ...projectRoutes,
  ...environmentRoutes,
  ...featureRoutes,
  ...tagRoutes,
];
