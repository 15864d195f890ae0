import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** segments.list, for the strategy form's segment picker. */
export const listSegmentsQueryOptions = () =>
  queryOptions({
    queryKey: ['segments'],
    queryFn: () => answerOf(api.GET('/api/admin/segments')),
    select: (d) => d.segments,
  });
export const useSegments = () => useQuery(listSegmentsQueryOptions());
