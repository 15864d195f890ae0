import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { apiData } from '../../auth/api/api-data';

export const personalTokensKey = ['personal-tokens'] as const;

/** `personalTokens.list`: the signed-in user's personal access tokens (no secrets). */
export const listPersonalTokensQueryOptions = () =>
  queryOptions({ queryKey: personalTokensKey, queryFn: () => apiData(api.GET('/api/admin/user/tokens')) });

/** `personalTokens.create`: the answer holds the secret, this once. */
export const createPersonalToken = (body: { description: string; expiresAt: string }) =>
  apiData(api.POST('/api/admin/user/tokens', { body }));

/** `personalTokens.delete`. */
export const deletePersonalToken = (id: number) =>
  apiData(api.DELETE('/api/admin/user/tokens/{id}', { params: { path: { id: String(id) } } }));
