import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { answerOf } from '../../../lib/api-answer';

/** The body addons.create and addons.update take. */
export type AddonBody = paths['/api/admin/addons']['post']['requestBody']['content']['application/json'];

export const addonKeys = {
  all: ['addons'] as const,
  parked: (id: number, parked: number) => ['addons', id, 'parked', parked] as const,
  log: (id: number) => ['addons', id, 'log'] as const,
};

/** addons.list: every addon with its delivery state, and the providers one may configure. */
export const listAddonsQueryOptions = () =>
  queryOptions({
    queryKey: addonKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/addons')),
  });

/** addons.deliveries: the addon's parked deliveries (keyed by how many there are, so a change reads again). */
export const addonDeliveriesQueryOptions = (id: number, parked: number) =>
  queryOptions({
    queryKey: addonKeys.parked(id, parked),
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/addons/{id}/deliveries', {
          params: { path: { id: String(id) }, query: { state: 'parked' } },
        }),
      ),
  });

/** addons.deliveryLog: every attempt, newest first, `pageSize` at a time. */
export const addonDeliveryLogQueryOptions = (id: number, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: addonKeys.log(id),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      answerOf(
        api.GET('/api/admin/addons/{id}/events', {
          params: { path: { id: String(id) }, query: { limit: pageSize, offset: pageParam } },
        }),
      ),
    getNextPageParam: (last, pages) =>
      last.integrationEvents.length < pageSize ? undefined : pages.length * pageSize,
  });

/** What addons.create answers: the new addon, with a webhook's signing secret shown this once. */
export type CreatedAddon = Awaited<ReturnType<typeof createAddon>>;

/** addons.create */
export const createAddon = (body: AddonBody) => answerOf(api.POST('/api/admin/addons', { body }));

/** addons.update */
export const updateAddon = (id: number, body: AddonBody) =>
  answerOf(api.PUT('/api/admin/addons/{id}', { params: { path: { id: String(id) } }, body }));

/** addons.delete */
export const deleteAddon = (id: number) =>
  answerOf(api.DELETE('/api/admin/addons/{id}', { params: { path: { id: String(id) } } }));

/** addons.rotateSigningSecret: the new secret (shown once) and until when the previous one still signs. */
export const rotateAddonSigningSecret = (id: number) =>
  answerOf(api.POST('/api/admin/addons/{id}/signing-secret', { params: { path: { id: String(id) } } }));

/** addons.replay: every parked delivery of the addon, or only the one of `eventId`. */
export const replayAddonDeliveries = (id: number, eventId: number | null) =>
  answerOf(
    eventId === null
      ? api.POST('/api/admin/addons/{id}/deliveries/replay', { params: { path: { id: String(id) } } })
      : api.POST('/api/admin/addons/{id}/deliveries/{eventId}/replay', {
          params: { path: { id: String(id), eventId: String(eventId) } },
        }),
  );
