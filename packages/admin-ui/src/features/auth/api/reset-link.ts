import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** Who a set-password or reset link belongs to (GET /auth/reset/validate). */
export const resetLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['reset-link', token],
    queryFn: () => answerOf(api.GET('/auth/reset/validate', { params: { query: { token } } })),
    retry: false,
    enabled: token !== '',
  });
