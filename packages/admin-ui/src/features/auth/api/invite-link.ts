import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/**
 * Whether an invite link is still good (GET /invite/:token/validate). The answer has no body and a
 * query's data may not be undefined, so a good link resolves to true; a bad one is an ApiError.
 */
export const inviteLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invite-link', token],
    queryFn: async () => {
      await answerOf(api.GET('/invite/{token}/validate', { params: { path: { token } } }));
      return true as const;
    },
    retry: false,
    enabled: token !== '',
  });
