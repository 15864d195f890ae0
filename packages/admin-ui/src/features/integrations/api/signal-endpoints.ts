import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const signalEndpointKeys = { all: ['signal-endpoints'] as const };

/** signals.endpoints.list */
export const listSignalEndpointsQueryOptions = () =>
  queryOptions({
    queryKey: signalEndpointKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/signal-endpoints')),
  });

/** signals.endpoints.create */
export const createSignalEndpoint = (name: string) =>
  answerOf(api.POST('/api/admin/signal-endpoints', { body: { name } }));

/** signals.endpoints.delete */
export const deleteSignalEndpoint = (id: number) =>
  answerOf(api.DELETE('/api/admin/signal-endpoints/{id}', { params: { path: { id: String(id) } } }));

/** signals.tokens.create: the new token's secret is in the answer, once. */
export const createSignalEndpointToken = (id: number, name: string) =>
  answerOf(
    api.POST('/api/admin/signal-endpoints/{id}/tokens', {
      params: { path: { id: String(id) } },
      body: { name },
    }),
  );
