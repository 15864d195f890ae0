import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const environmentKeys = { all: ['environments'] as const };

/** environments.list */
export const listEnvironmentsQueryOptions = () =>
  queryOptions({
    queryKey: environmentKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/environments')),
  });
