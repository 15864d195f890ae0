import type { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { environmentSortOrderSchema } from '../domain/environment-order.js';
import type { FlagstaffEvent } from '../domain/event.js';
import type { eventSearchQuerySchema } from '../domain/event-search.js';
import type { Segment } from '../domain/segment.js';
import type { strategySegmentsSchema } from '../domain/strategy-segments.js';
import type { Tag } from '../domain/tag.js';
import type { OperationRunner } from '../operations/run-operation.js';
import { listEventCreators, searchEventsPaged } from './events/event-search-operations.js';
import { createTag, deleteTag, getTag } from './features/tag-operations.js';
import { setEnvironmentOrder } from './projects/environment-order-operations.js';
import { listStrategySegments, setStrategySegments } from './projects/segment-strategy-operations.js';

/**
 * `flagstaff.catalog`, kept so embedders' calls still work: typed wrappers over operations that
 * live in their areas now (tags, events, environments, segments).
 */
export function createCatalogCompat(run: OperationRunner) {
  return {
    /** Creates a tag of an existing type (tag-created). Also `flagstaff.tags.createTag`. */
    createTag: (caller: Caller, input: { type?: string; value: string }): Promise<{ tag: Tag }> =>
      run(createTag, caller, input),
    /** One tag, or NOT_FOUND. Also `flagstaff.tags.getTag`. */
    getTag: (caller: Caller, type: string, value: string): Promise<{ tag: Tag }> =>
      run(getTag, caller, { type, value }),
    /** Deletes a tag and takes it off every feature. Also `flagstaff.tags.deleteTag`. */
    deleteTag: (caller: Caller, type: string, value: string): Promise<void> =>
      run(deleteTag, caller, { type, value }),
    /** Who has written events, for the event log's filter. */
    eventCreators: (caller: Caller): Promise<{ id: number; name: string }[]> =>
      run(listEventCreators, caller, {}),
    /** The event log filtered and paged, with the total. */
    searchEvents: (
      caller: Caller,
      query: z.input<typeof eventSearchQuerySchema>,
    ): Promise<{ events: FlagstaffEvent[]; total: number }> => run(searchEventsPaged, caller, query),
    /** Sets the sort order of any of the environments. */
    setEnvironmentOrder: (caller: Caller, order: z.input<typeof environmentSortOrderSchema>): Promise<void> =>
      run(setEnvironmentOrder, caller, order),
    /** The segments a strategy uses. */
    segmentsOfStrategy: async (caller: Caller, strategyId: string): Promise<Segment[]> =>
      (await run(listStrategySegments, caller, { strategyId })).segments,
    /** Replaces the segments of one strategy. */
    setStrategySegments: (caller: Caller, input: z.input<typeof strategySegmentsSchema>): Promise<void> =>
      run(setStrategySegments, caller, input),
  };
}

export type CatalogCompat = ReturnType<typeof createCatalogCompat>;
