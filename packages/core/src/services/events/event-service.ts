import type { Caller } from '../../auth/caller.js';
import type { EventList, EventSearchInput, EventSearchResult, FeatureEvents } from '../../domain/event.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { listEvents, listFeatureEvents, searchEvents } from './event-operations.js';

export type { EventList, EventSearchResult, FeatureEvents } from '../../domain/event.js';

/**
 * Reading and searching the event log in-process: typed wrappers over the operations in
 * `event-operations.ts` (which HTTP serves too). Events of private projects the caller may not see
 * are left out inside the store query (events without a project stay).
 */
export function createEventService(run: OperationRunner) {
  return {
    /** The last 100 events, or every event of the project when one is given (newest first). */
    list: (caller: Caller, project?: string): Promise<EventList> =>
      run(listEvents, caller, project === undefined ? {} : { project }),
    /** Searches the log (type, project, feature, free text), newest first, with the total of matches. */
    search: (caller: Caller, input: EventSearchInput = {}): Promise<EventSearchResult> =>
      run(searchEvents, caller, input),
    /** Every event of the named feature, newest first (a deleted feature keeps its history). */
    forFeature: (caller: Caller, name: string): Promise<FeatureEvents> =>
      run(listFeatureEvents, caller, { featureName: name }),
  };
}

export type EventService = ReturnType<typeof createEventService>;
