import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const tagTypesKey = ['tag-types'];

/** All tag types (GET /tag-types). */
export const listTagTypesQueryOptions = () =>
  queryOptions({
    queryKey: tagTypesKey,
    queryFn: () => answerOf(api.GET('/api/admin/tag-types')),
  });
