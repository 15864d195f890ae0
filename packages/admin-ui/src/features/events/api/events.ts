import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';
import { EVENT_TYPES } from '../../../lib/domain';

export interface EventFilters {
  type: string;
  project: string;
  feature: string;
  query: string;
}

/** The event search (POST /events/search): a page of `limit` events back from the `cursor` id. */
export const searchEventsQueryOptions = (filters: EventFilters, cursor: number | undefined, limit: number) =>
  queryOptions({
    queryKey: ['events', 'search', filters, cursor],
    placeholderData: keepPreviousData,
    queryFn: () =>
      answerOf(
        api.POST('/api/admin/events/search', {
          body: {
            ...(filters.type ? { type: EVENT_TYPES.find((t) => t === filters.type) } : {}),
            ...(filters.project ? { project: filters.project } : {}),
            ...(filters.feature ? { feature: filters.feature } : {}),
            ...(filters.query ? { query: filters.query } : {}),
            limit,
            ...(cursor !== undefined ? { offset: cursor } : {}),
          },
        }),
      ),
  });
