import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** environments.list, for the addon form's environment filter. */
export const listEnvironmentsQueryOptions = () =>
  queryOptions({
    queryKey: ['environments'],
    queryFn: () => answerOf(api.GET('/api/admin/environments')),
  });
