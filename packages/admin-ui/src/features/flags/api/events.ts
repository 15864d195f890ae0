import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** The feature's event log (GET /events/:featureName). */
export const featureEventsQueryOptions = (featureName: string) =>
  queryOptions({
    queryKey: ['events', 'feature', featureName],
    queryFn: () =>
      answerOf(api.GET('/api/admin/events/{featureName}', { params: { path: { featureName } } })),
  });
export const useFeatureEvents = (featureName: string) => useQuery(featureEventsQueryOptions(featureName));
