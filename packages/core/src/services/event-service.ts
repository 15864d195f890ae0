import { type EventQuery, eventSearchSchema, type FlagstaffEvent } from '../domain/event.js';
import { parseWith } from '../domain/parse.js';
import type { ServiceDeps } from './deps.js';

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

/** Reading and searching the event log. */
export function createEventService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    /** The last 100 events, or every event of the project when one is given (newest first). */
    async list(project?: string): Promise<EventList> {
      const events = await store.events.search(
        project === undefined ? { limit: RECENT_EVENTS } : { project },
      );
      return { version: 1, events };
    },

    /**
     * Searches the log: exact type/project/feature, free-text `query`, newest first. `offset` is a
     * cursor (events with id ≤ offset); `totalEvents` counts every match of the filters and query,
     * whatever the cursor, so a client can tell how far through the listing it is.
     */
    async search(input: unknown): Promise<EventSearchResult> {
      const body = parseWith(eventSearchSchema, input ?? {});
      const query = body.query?.trim();
      const filters: Omit<EventQuery, 'limit'> = {
        type: body.type,
        project: body.project,
        feature: body.feature,
        query: query ? query : undefined,
      };
      const [events, totalEvents] = await Promise.all([
        store.events.search({ ...filters, maxId: body.offset, limit: body.limit }),
        store.events.count(filters),
      ]);
      return { version: 1, events, totalEvents };
    },

    /**
     * Every event of the named feature, newest first. A name that never existed has none; a deleted
     * feature keeps its history (as the reference does), since that is what the log is for.
     */
    async forFeature(name: string): Promise<FeatureEvents> {
      const events = await store.events.search({ feature: name });
      return { version: 1, toggleName: name, events, totalEvents: events.length };
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
