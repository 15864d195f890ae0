import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const personalTokensKey = ['personal-tokens'] as const;

/** `personalTokens.list`: the signed-in user's personal access tokens (no secrets). */
export const listPersonalTokensQueryOptions = () =>
  queryOptions({ queryKey: personalTokensKey, queryFn: () => answerOf(api.GET('/api/admin/user/tokens')) });

/** `personalTokens.create`: the answer holds the secret, this once. */
export const createPersonalToken = (body: { description: string; expiresAt: string }) =>
  answerOf(api.POST('/api/admin/user/tokens', { body }));

/** `personalTokens.delete`. */
export const deletePersonalToken = (id: number) =>
  answerOf(api.DELETE('/api/admin/user/tokens/{id}', { params: { path: { id: String(id) } } }));
