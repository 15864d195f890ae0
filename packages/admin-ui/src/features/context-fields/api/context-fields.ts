import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const contextFieldKeys = { all: ['context-fields'] as const };

/** contextFields.list */
export const listContextFieldsQueryOptions = () =>
  queryOptions({
    queryKey: contextFieldKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/context')),
  });
