import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AddonView, IntegrationEvent, QueuedDeliveryView } from '../../api/types';
import { Badge, ErrorNotice, formatDate, formatRelative, Loading } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import {
  addonDeliveriesQueryOptions,
  addonDeliveryLogQueryOptions,
  replayAddonDeliveries,
} from './api/addons';

const PAGE = 25;

/** Polls often while an addon has work queued, less often while it is idle. */
export const deliveryPolling = (addons: AddonView[] | undefined, idleMs = 10_000): number =>
  addons?.some((a) => a.delivery.state !== 'healthy' || a.delivery.pending > 0) ? 2_000 : idleMs;

/** Renders again every `everyMs`, so the relative times shown move on by themselves. */
export function useTick(everyMs = 5_000): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
}

/** An addon's delivery state: healthy, retrying since when (and why), or how many are parked. */
export function DeliveryBadge({ addon }: { addon: AddonView }) {
  const { delivery } = addon;
  useTick();
  if (delivery.state === 'retrying')
    return (
      <span className="delivery-state">
        <Badge tone="warn">
          <span title={formatDate(delivery.retryingSince)}>
            Retrying since {formatRelative(delivery.retryingSince)}
          </span>
        </Badge>
        {delivery.lastError ? (
          <span className="muted delivery-error" title={delivery.lastError}>
            {delivery.lastError}
          </span>
        ) : null}
      </span>
    );
  if (delivery.state === 'parked') return <Badge tone="bad">{delivery.parked} parked</Badge>;
  return <Badge tone="good">Healthy</Badge>;
}

type DeliveredEvent = IntegrationEvent['event'] | QueuedDeliveryView['event'];

/** The event's type and feature, or only its id once it can no longer be read. */
export function EventCell({ event }: { event: DeliveredEvent }) {
  if (!('type' in event)) return <span className="muted">event {event.id}</span>;
  return (
    <>
      <div>{event.type}</div>
      {event.featureName ? <div className="muted">{event.featureName}</div> : null}
    </>
  );
}

/** The events given up on, each with a replay button, and a button replaying them all. */
export function ParkedEvents({ addon, canUpdate }: { addon: AddonView; canUpdate: boolean }) {
  useTick();
  const parked = useQuery(addonDeliveriesQueryOptions(addon.id, addon.delivery.parked));
  const replay = useApiMutation({
    mutationFn: (eventId: number | null) => replayAddonDeliveries(addon.id, eventId),
    invalidates: [['addons']],
    success: (result, eventId) =>
      eventId === null ? `Replaying ${result.replayed ?? 0} event(s)` : `Replaying event ${eventId}`,
  });
  const deliveries = parked.data?.deliveries ?? [];
  return (
    <div className="stack">
      <div className="row-between">
        <h3 className="section-title">Parked events</h3>
        <button
          type="button"
          className="btn btn-small"
          disabled={!canUpdate || deliveries.length === 0 || replay.isPending}
          title={canUpdate ? undefined : 'Replaying needs the UPDATE_ADDON permission'}
          onClick={() => replay.mutate(null)}
        >
          Replay all
        </button>
      </div>
      <ErrorNotice error={parked.error} />
      {parked.isPending ? <Loading /> : null}
      {!parked.isPending && deliveries.length === 0 ? (
        <p className="muted">Nothing parked: every event was delivered or is still being tried.</p>
      ) : null}
      {deliveries.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Parked events">
            <thead>
              <tr>
                <th>Event</th>
                <th>Failing since</th>
                <th>Attempts</th>
                <th>Last error</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.eventId}>
                  <td>
                    <EventCell event={d.event} />
                  </td>
                  <td className="nowrap" title={formatDate(d.failingSince)}>
                    {formatRelative(d.failingSince)}
                  </td>
                  <td>{d.attempts}</td>
                  <td className="muted">{d.lastError ?? '—'}</td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={!canUpdate || replay.isPending}
                      aria-label={`Replay event ${d.eventId}`}
                      onClick={() => replay.mutate(d.eventId)}
                    >
                      Replay
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** Every attempt, newest first, a page at a time ("Older" reads the next). */
export function DeliveryLog({ addon, refetchInterval }: { addon: AddonView; refetchInterval: number }) {
  const log = useInfiniteQuery({ ...addonDeliveryLogQueryOptions(addon.id, PAGE), refetchInterval });
  // New attempts shift the offsets while older pages are open: show each attempt once.
  const seen = new Set<string>();
  const events = (log.data?.pages ?? [])
    .flatMap((p) => p.integrationEvents)
    .filter((e) => !seen.has(e.id) && seen.add(e.id));
  if (log.isPending) return <Loading />;
  return (
    <div className="stack">
      <ErrorNotice error={log.error} />
      {events.length === 0 ? (
        <p className="muted">No deliveries yet: they show here once an event this addon forwards happens.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Delivery log">
            <thead>
              <tr>
                <th>Time</th>
                <th>Event</th>
                <th>Attempt</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap" title={formatDate(e.createdAt)}>
                    {new Date(e.createdAt).toLocaleString(undefined, {
                      dateStyle: 'short',
                      timeStyle: 'medium',
                    })}
                  </td>
                  <td>
                    <EventCell event={e.event} />
                  </td>
                  <td>{e.details.attempt}</td>
                  <td>
                    <Badge tone={e.state === 'success' ? 'good' : 'bad'}>
                      {e.details.statusCode ?? 'no answer'}
                    </Badge>
                  </td>
                  <td className="nowrap">{e.details.durationMs} ms</td>
                  <td className="muted">{e.details.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage ? (
        <div>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Older'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
