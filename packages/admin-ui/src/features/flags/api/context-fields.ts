import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** contextFields.list, for the strategy form's constraint editor. */
export const listContextFieldsQueryOptions = () =>
  queryOptions({
    queryKey: ['context-fields'],
    queryFn: () => answerOf(api.GET('/api/admin/context')),
  });
export const useContextFields = () => useQuery(listContextFieldsQueryOptions());
