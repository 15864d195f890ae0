import { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { hiddenProjects } from '../../auth/project-visibility.js';
import {
  type EventQuery,
  eventListSchema,
  eventSearchResultSchema,
  eventSearchSchema,
  featureEventsSchema,
} from '../../domain/event.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';

/** Events returned by GET /api/admin/events when no project is given. */
const RECENT_EVENTS = 100;

/**
 * The project filter for a viewer: null when the named project is hidden (nothing to read), else
 * the projects to leave out; none at all when a visible project is named or nothing is hidden,
 * so such a search is exactly the query it was before. Leaving hidden projects out inside the
 * store query keeps pages full and totals counting what can be listed.
 */
async function projectFilter(
  repos: ReadRepositories,
  viewer: Principal,
  project: string | undefined,
): Promise<Pick<EventQuery, 'excludeProjects'> | null> {
  const hidden = await hiddenProjects(repos, viewer);
  if (hidden.length === 0) return {};
  if (project !== undefined) return hidden.includes(project) ? null : {};
  return { excludeProjects: hidden };
}

/**
 * The last 100 events, or every event of the project when one is given (newest first). A hidden
 * project lists nothing, as the reference does: no project scope on the permission.
 */
export const listEvents = defineOperation({
  id: 'events.list',
  summary: 'List events',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ project: z.string().optional() }),
  output: eventListSchema,
  run: async ({ project }, { repos, caller }) => {
    const visible = await projectFilter(repos, caller.principal, project);
    if (visible === null) return { version: 1 as const, events: [] };
    const events = await repos.events.search(
      project === undefined ? { limit: RECENT_EVENTS, ...visible } : { project, ...visible },
    );
    return { version: 1 as const, events };
  },
});

/**
 * Searches the log: exact type/project/feature, free-text `query`, newest first. `offset` is a
 * cursor (events with id ≤ offset); `totalEvents` counts every match of the filters and query,
 * whatever the cursor, so a client can tell how far through the listing it is.
 */
export const searchEvents = defineOperation({
  id: 'events.search',
  summary: 'Search events',
  kind: 'read',
  permission: 'NONE',
  input: eventSearchSchema,
  output: eventSearchResultSchema,
  run: async (body, { repos, caller }) => {
    const visible = await projectFilter(repos, caller.principal, body.project);
    if (visible === null) return { version: 1 as const, events: [], totalEvents: 0 };
    const query = body.query?.trim();
    const filters: Omit<EventQuery, 'limit'> = {
      type: body.type,
      project: body.project,
      feature: body.feature,
      query: query ? query : undefined,
      ...visible,
    };
    const [events, totalEvents] = await Promise.all([
      repos.events.search({ ...filters, maxId: body.offset, limit: body.limit }),
      repos.events.count(filters),
    ]);
    return { version: 1 as const, events, totalEvents };
  },
});

/**
 * Every event of the named feature, newest first. A name that never existed has none; a deleted
 * feature keeps its history (as the reference does), since that is what the log is for. Events
 * in projects hidden from the viewer are left out, so a hidden feature has none.
 */
export const listFeatureEvents = defineOperation({
  id: 'events.forFeature',
  summary: 'List the events of a feature',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ featureName: z.string() }),
  output: featureEventsSchema,
  run: async ({ featureName }, { repos, caller }) => {
    const hidden = await hiddenProjects(repos, caller.principal);
    const events = await repos.events.search(
      hidden.length === 0 ? { feature: featureName } : { feature: featureName, excludeProjects: hidden },
    );
    return { version: 1 as const, toggleName: featureName, events, totalEvents: events.length };
  },
});

/** Every event-log operation, for route tables and tools. */
export const eventOperations = [listEvents, searchEvents, listFeatureEvents] as const;
