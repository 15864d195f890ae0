import type { Caller } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import { hiddenProjects } from '../../auth/project-visibility.js';
import { type EventQuery, eventSearchSchema, type FlagstaffEvent } from '../../domain/event.js';
import { parseWith } from '../../domain/parse.js';
import type { ServiceDeps } from '../deps.js';

/** Events returned by GET /api/admin/events when no project is given. */
const RECENT_EVENTS = 100;

export interface EventList {
  version: 1;
  events: FlagstaffEvent[];
}

export interface EventSearchResult extends EventList {
  totalEvents: number;
}

export interface FeatureEvents extends EventSearchResult {
  toggleName: string;
}

/**
 * Reading and searching the event log. With a `viewer`, events of private projects the viewer may
 * not see are left out inside the store query (events without a project stay), so pages stay full
 * and totals count what can be listed. Without one (in-process calls), every event is read.
 */
export function createEventService(deps: ServiceDeps) {
  const { store } = deps;

  /**
   * The project filter for a viewer: null when the named project is hidden (nothing to read), else
   * the projects to leave out; none at all when a visible project is named or nothing is hidden,
   * so such a search is exactly the query it was before.
   */
  async function projectFilter(
    viewer: Principal,
    project: string | undefined,
  ): Promise<Pick<EventQuery, 'excludeProjects'> | null> {
    const hidden = await hiddenProjects(store, viewer);
    if (hidden.length === 0) return {};
    if (project !== undefined) return hidden.includes(project) ? null : {};
    return { excludeProjects: hidden };
  }

  return {
    /** The last 100 events, or every event of the project when one is given (newest first). */
    async list(caller: Caller, project?: string): Promise<EventList> {
      // A hidden project lists nothing (below), as the reference does: no project scope here.
      await deps.policy.require(caller, 'NONE');
      const visible = await projectFilter(caller.principal, project);
      if (visible === null) return { version: 1, events: [] };
      const events = await store.events.search(
        project === undefined ? { limit: RECENT_EVENTS, ...visible } : { project, ...visible },
      );
      return { version: 1, events };
    },

    /**
     * Searches the log: exact type/project/feature, free-text `query`, newest first. `offset` is a
     * cursor (events with id ≤ offset); `totalEvents` counts every match of the filters and query,
     * whatever the cursor, so a client can tell how far through the listing it is.
     */
    async search(caller: Caller, input: unknown): Promise<EventSearchResult> {
      await deps.policy.require(caller, 'NONE', {});
      const body = parseWith(eventSearchSchema, input ?? {});
      const visible = await projectFilter(caller.principal, body.project);
      if (visible === null) return { version: 1, events: [], totalEvents: 0 };
      const query = body.query?.trim();
      const filters: Omit<EventQuery, 'limit'> = {
        type: body.type,
        project: body.project,
        feature: body.feature,
        query: query ? query : undefined,
        ...visible,
      };
      const [events, totalEvents] = await Promise.all([
        store.events.search({ ...filters, maxId: body.offset, limit: body.limit }),
        store.events.count(filters),
      ]);
      return { version: 1, events, totalEvents };
    },

    /**
     * Every event of the named feature, newest first. A name that never existed has none; a deleted
     * feature keeps its history (as the reference does), since that is what the log is for. Events
     * in projects hidden from the viewer are left out, so a hidden feature has none.
     */
    async forFeature(caller: Caller, name: string): Promise<FeatureEvents> {
      await deps.policy.require(caller, 'NONE', {});
      const hidden = await hiddenProjects(store, caller.principal);
      const events = await store.events.search(
        hidden.length === 0 ? { feature: name } : { feature: name, excludeProjects: hidden },
      );
      return { version: 1, toggleName: name, events, totalEvents: events.length };
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
