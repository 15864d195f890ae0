import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** The roles that exist (the profile names the user's root role). */
export const rolesQueryOptions = () =>
  queryOptions({ queryKey: ['roles'], queryFn: () => answerOf(api.GET('/api/admin/roles')) });
