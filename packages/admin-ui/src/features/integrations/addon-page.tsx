import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AddonView } from '../../api/types';
import { SecretOnce } from '../../components/secret-once';
import { ConfirmDialog } from '../../components/ui/dialog';
import {
  Card,
  EmptyState,
  ErrorNotice,
  formatDate,
  formatRelative,
  Loading,
  PageHeader,
} from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { DeliveryBadge, DeliveryLog, deliveryPolling, ParkedEvents, useTick } from './addon-deliveries';
import { AddonForm } from './addon-form';
import { listAddonsQueryOptions, rotateAddonSigningSecret } from './api/addons';
import { NeedsAdmin } from './needs-admin';
import { VerifyHint } from './verify-hint';

const Stat = ({ value, label }: { value: ReactNode; label: string }) => (
  <div>
    <div className="stat">{value}</div>
    <div className="stat-label">{label}</div>
  </div>
);

/** Rotating a webhook's signing secret, after a confirmation; the new one is shown once. */
function SigningSecret({ addon, canUpdate }: { addon: AddonView; canUpdate: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<{ signingSecret: string; previousValidUntil: string } | null>(null);
  const rotate = useApiMutation({
    mutationFn: () => rotateAddonSigningSecret(addon.id),
    onSuccess: setRotated,
    success: 'Signing secret rotated',
  });
  return (
    <Card
      title="Signing secret"
      actions={
        <button
          type="button"
          className="btn btn-small"
          disabled={!canUpdate || rotate.isPending}
          title={canUpdate ? undefined : 'Rotating needs the UPDATE_ADDON permission'}
          onClick={() => setConfirming(true)}
        >
          Rotate signing secret
        </button>
      }
    >
      {rotated ? (
        <div className="stack">
          <SecretOnce secret={rotated.signingSecret} label="new signing secret" />
          <p className="muted">
            The previous secret keeps signing beside it until {formatDate(rotated.previousValidUntil)}.
          </p>
        </div>
      ) : (
        <VerifyHint />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Rotate the signing secret"
        message="A new secret signs every delivery from now on; the current one keeps signing beside it for 24 hours, so update your receiver within that time."
        confirmLabel="Rotate"
        onConfirm={() => {
          setConfirming(false);
          rotate.mutate();
        }}
      />
    </Card>
  );
}

/** One addon: its delivery state, parked events with replay, configuration, signing secret and delivery log. */
export default function AddonPage() {
  const addonId = Number(useParams().addonId);
  const can = useCan();
  const whyNot = useWhyNot();
  const admin = can('ADMIN');
  useTick();
  const list = useQuery({
    ...listAddonsQueryOptions(),
    enabled: admin,
    // This page is where deliveries are watched: fresh on arrival, and often while it is open.
    refetchOnMount: 'always',
    refetchInterval: (query) => deliveryPolling(query.state.data?.addons, 5_000),
  });
  const breadcrumbs = (
    <div className="breadcrumbs">
      <Link to="/integrations">Integrations</Link> / addon {Number.isNaN(addonId) ? '' : addonId}
    </div>
  );
  if (!admin)
    return (
      <>
        {breadcrumbs}
        <NeedsAdmin />
      </>
    );
  if (list.isPending) return <Loading />;
  if (list.error && !list.data)
    return (
      <>
        {breadcrumbs}
        <ErrorNotice error={list.error} />
      </>
    );
  const addon = list.data.addons.find((a) => a.id === addonId);
  if (!addon)
    return (
      <>
        {breadcrumbs}
        <EmptyState>There is no addon {String(addonId)}.</EmptyState>
      </>
    );
  const provider = list.data.providers.find((p) => p.name === addon.provider);
  const canUpdate = can('UPDATE_ADDON');
  const { delivery } = addon;
  const url = typeof addon.parameters.url === 'string' ? addon.parameters.url : undefined;
  return (
    <>
      {breadcrumbs}
      <PageHeader
        title={
          <span className="row">
            {`${provider?.displayName ?? addon.provider} #${addon.id}`}
            <DeliveryBadge addon={addon} />
          </span>
        }
        subtitle={[addon.description, url].filter(Boolean).join(' · ') || undefined}
      />
      <div className="stack">
        <Card title="Delivery">
          <div className="stack">
            <div className="grid grid-4">
              <Stat value={delivery.pending} label="Pending" />
              <Stat value={delivery.parked} label="Parked" />
              <Stat
                value={delivery.retryingSince ? formatRelative(delivery.retryingSince) : '—'}
                label="Retrying since"
              />
              <Stat value={addon.enabled ? 'On' : 'Off'} label="Enabled" />
            </div>
            {delivery.lastError ? (
              <div className="notice notice-error">Last error: {delivery.lastError}</div>
            ) : null}
            <ParkedEvents addon={addon} canUpdate={canUpdate} />
          </div>
        </Card>
        <Card title="Configuration">
          <AddonForm
            key={addon.id}
            providers={list.data.providers}
            addon={addon}
            refused={whyNot('UPDATE_ADDON')}
            onSaved={() => undefined}
          />
        </Card>
        {addon.provider === 'webhook' ? <SigningSecret addon={addon} canUpdate={canUpdate} /> : null}
        <Card title="Delivery log">
          <DeliveryLog addon={addon} refetchInterval={deliveryPolling([addon], 5_000)} />
        </Card>
      </div>
    </>
  );
}
