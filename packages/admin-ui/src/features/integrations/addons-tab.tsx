import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AddonView } from '../../api/types';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Loading } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { EVENT_TYPES } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { DeliveryBadge, deliveryPolling } from './addon-deliveries';
import { AddonForm } from './addon-form';
import { addonKeys, deleteAddon, listAddonsQueryOptions, updateAddon } from './api/addons';
import { NeedsAdmin } from './needs-admin';
import { VerifyHint } from './verify-hint';

const key = addonKeys.all;

/** Addons forward events to webhooks and chat tools. */
export function AddonsTab() {
  const can = useCan();
  const whyNot = useWhyNot();
  const admin = can('ADMIN');
  const list = useQuery({
    ...listAddonsQueryOptions(),
    enabled: admin,
    refetchInterval: (query) => deliveryPolling(query.state.data?.addons),
  });
  const providers = list.data?.providers ?? [];
  const [created, setCreated] = useState<{ id: number; signingSecret: string } | null>(null);
  // A new form (empty fields) after each addon created.
  const [formKey, setFormKey] = useState(0);
  const eventTypes = (list: string[]) => EVENT_TYPES.filter((t) => list.includes(t));
  const toggle = useApiMutation({
    mutationFn: (a: AddonView) =>
      updateAddon(a.id, {
        provider: a.provider,
        description: a.description,
        enabled: !a.enabled,
        parameters: a.parameters,
        events: eventTypes(a.events),
        projects: a.projects,
        environments: a.environments,
      }),
    invalidates: [key],
  });
  const remove = useApiMutation({
    mutationFn: (id: number) => deleteAddon(id),
    invalidates: [key],
    success: 'Addon deleted',
  });
  if (!admin)
    return (
      <Card title="Configured addons">
        <NeedsAdmin />
      </Card>
    );
  return (
    <div className="grid grid-2">
      <Card title="Configured addons">
        {list.isPending ? <Loading /> : null}
        <ErrorNotice error={list.error} />
        {list.data?.addons.length === 0 ? <p className="muted">No addons yet.</p> : null}
        {list.data?.addons.map((a) => (
          <div key={a.id} className="strategy">
            <div className="strategy-head">
              <Switch
                checked={a.enabled}
                disabled={!can('UPDATE_ADDON')}
                title={whyNot('UPDATE_ADDON') ?? undefined}
                label={`Addon ${a.id} enabled`}
                onCheckedChange={() => toggle.mutate(a)}
              />
              <strong>
                {providers.find((p) => p.name === a.provider)?.displayName ?? a.provider} #{a.id}
              </strong>
              <span className="spacer" />
              <Link className="btn btn-small btn-ghost" to={`addons/${a.id}`}>
                Edit &amp; deliveries
              </Link>
              <ActionButton
                type="button"
                className="btn btn-small btn-ghost"
                disabledReason={whyNot('DELETE_ADDON')}
                onClick={() => remove.mutate(a.id)}
              >
                Delete
              </ActionButton>
            </div>
            <div className="row addon-meta">
              <DeliveryBadge addon={a} />
              <Badge>{a.events.length} event type(s)</Badge>
              {a.projects.length ? <Badge>projects: {a.projects.join(', ')}</Badge> : null}
              {a.environments.length ? <Badge>environments: {a.environments.join(', ')}</Badge> : null}
              {a.description ? <span className="muted">{a.description}</span> : null}
            </div>
          </div>
        ))}
      </Card>
      <Card title="New addon">
        {created ? (
          <div className="stack">
            <SecretOnce secret={created.signingSecret} label="webhook's signing secret" />
            <VerifyHint />
            <Link to={`addons/${created.id}`}>Open its deliveries</Link>
          </div>
        ) : null}
        <AddonForm
          key={formKey}
          providers={providers}
          refused={whyNot('CREATE_ADDON')}
          onSaved={(result) => {
            setFormKey((k) => k + 1);
            setCreated(result?.signingSecret ? { id: result.id, signingSecret: result.signingSecret } : null);
          }}
        />
      </Card>
    </div>
  );
}
