import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const segmentKeys = { all: ['segments'] as const, contextFields: ['context-fields'] as const };

/** segments.list */
export const listSegmentsQueryOptions = () =>
  queryOptions({
    queryKey: segmentKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/segments')),
  });

/** contextFields.list: what a segment's constraints may refer to. */
export const listContextFieldsQueryOptions = () =>
  queryOptions({
    queryKey: segmentKeys.contextFields,
    queryFn: () => answerOf(api.GET('/api/admin/context')),
  });
