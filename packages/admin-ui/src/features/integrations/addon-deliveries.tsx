import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AddonView, IntegrationEvent, QueuedDeliveryView } from '../../api/types';
import { SecretOnce } from '../../components/secret-once';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Badge, ErrorNotice, formatDate, Loading } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';

const PAGE = 20;

/** An addon's delivery state as a badge: healthy, retrying since when, or how many are parked. */
export function DeliveryBadge({ addon }: { addon: AddonView }) {
  const { delivery } = addon;
  if (delivery.state === 'retrying')
    return (
      <Badge tone="warn">
        Retrying since {formatDate(delivery.retryingSince)}
        {delivery.lastError ? ` (${delivery.lastError})` : ''}
      </Badge>
    );
  if (delivery.state === 'parked') return <Badge tone="bad">{delivery.parked} parked</Badge>;
  return <Badge tone="good">Healthy</Badge>;
}

const eventLabel = (e: IntegrationEvent['event'] | QueuedDeliveryView['event']) =>
  'type' in e ? `${e.type}${e.featureName ? ` · ${e.featureName}` : ''}` : `event ${e.id}`;

/** The delivery log, the parked events with replay, and signing-secret rotation of one addon. */
export function AddonDeliveries({
  addon,
  canUpdate,
  signed,
}: {
  addon: AddonView;
  canUpdate: boolean;
  signed: boolean;
}) {
  const id = String(addon.id);
  const [pages, setPages] = useState(1);
  const [rotating, setRotating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const logKey = ['addons', addon.id, 'log', pages];
  const parkedKey = ['addons', addon.id, 'parked'];
  const log = useQuery({
    queryKey: logKey,
    queryFn: () =>
      unwrap<{ integrationEvents: IntegrationEvent[] }>(
        api.GET('/api/admin/addons/{id}/events', {
          params: { path: { id }, query: { limit: PAGE * pages } },
        }),
      ),
    refetchInterval: 5_000,
  });
  const parked = useQuery({
    queryKey: parkedKey,
    queryFn: () =>
      unwrap<{ deliveries: QueuedDeliveryView[] }>(
        api.GET('/api/admin/addons/{id}/deliveries', {
          params: { path: { id }, query: { state: 'parked' } },
        }),
      ),
    refetchInterval: 5_000,
  });
  const replay = useApiMutation({
    mutationFn: (eventId: number | null) =>
      unwrap(
        eventId === null
          ? api.POST('/api/admin/addons/{id}/deliveries/replay', { params: { path: { id } } })
          : api.POST('/api/admin/addons/{id}/deliveries/{eventId}/replay', {
              params: { path: { id, eventId: String(eventId) } },
            }),
      ),
    invalidates: [['addons']],
    success: 'Replaying',
  });
  const rotate = useApiMutation({
    mutationFn: () =>
      unwrap<{ signingSecret: string }>(
        api.POST('/api/admin/addons/{id}/signing-secret', { params: { path: { id } } }),
      ),
    onSuccess: (result) => setSecret(result.signingSecret),
    success: 'Signing secret rotated',
  });
  const events = log.data?.integrationEvents ?? [];
  return (
    <section className="stack" aria-label={`Deliveries of addon ${addon.id}`}>
      <div className="strategy-head">
        <strong>Deliveries</strong>
        <Badge>{addon.delivery.pending} pending</Badge>
        <span className="spacer" />
        {signed ? (
          <button
            type="button"
            className="btn btn-small"
            disabled={!canUpdate}
            onClick={() => setRotating(true)}
          >
            Rotate signing secret
          </button>
        ) : null}
      </div>
      {secret ? (
        <SecretOnce secret={secret} label="new signing secret (the old one signs too for 24 hours)" />
      ) : null}
      <ErrorNotice error={parked.error} />
      {(parked.data?.deliveries.length ?? 0) > 0 ? (
        <div className="stack">
          <div className="strategy-head">
            <strong>Parked events</strong>
            <span className="spacer" />
            <button
              type="button"
              className="btn btn-small"
              disabled={!canUpdate}
              onClick={() => replay.mutate(null)}
            >
              Replay all
            </button>
          </div>
          <ul className="delivery-list">
            {parked.data?.deliveries.map((d) => (
              <li key={d.eventId} className="strategy-head">
                <span>{eventLabel(d.event)}</span>
                <span className="muted">{d.lastError}</span>
                <span className="spacer" />
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  disabled={!canUpdate}
                  aria-label={`Replay event ${d.eventId}`}
                  onClick={() => replay.mutate(d.eventId)}
                >
                  Replay
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {log.isPending ? <Loading /> : null}
      <ErrorNotice error={log.error} />
      {events.length === 0 && !log.isPending ? <p className="muted">No deliveries yet.</p> : null}
      {events.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Delivery log">
            <thead>
              <tr>
                <th>When</th>
                <th>Event</th>
                <th>Attempt</th>
                <th>Result</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td title={formatDate(e.createdAt)} className="nowrap">
                    {new Date(e.createdAt).toLocaleTimeString()}
                  </td>
                  <td>
                    {'type' in e.event ? e.event.type : `event ${e.event.id}`}
                    {'featureName' in e.event && e.event.featureName ? (
                      <div className="muted">{e.event.featureName}</div>
                    ) : null}
                  </td>
                  <td>{e.details.attempt}</td>
                  <td>
                    <Badge tone={e.state === 'success' ? 'good' : 'bad'}>
                      {e.details.statusCode ?? 'no answer'}
                    </Badge>{' '}
                    {e.details.error && e.details.error !== `HTTP ${e.details.statusCode}` ? (
                      <span className="muted">{e.details.error}</span>
                    ) : null}
                  </td>
                  <td className="nowrap">{e.details.durationMs} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {events.length >= PAGE * pages ? (
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setPages(pages + 1)}>
          Older
        </button>
      ) : null}
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        title="Rotate the signing secret"
        message="A new secret signs every delivery from now on; the current one keeps signing beside it for 24 hours, so update your receiver within that time."
        confirmLabel="Rotate"
        onConfirm={() => rotate.mutate()}
      />
    </section>
  );
}
