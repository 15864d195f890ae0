import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AddonProviderDefinition, AddonView, CreatedAddon } from '../../api/types';
import { SecretOnce } from '../../components/secret-once';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field, Loading } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { EVENT_TYPES } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { DeliveryBadge, deliveryPolling } from './addon-deliveries';
import { NeedsAdmin } from './needs-admin';
import { VerifyHint } from './verify-hint';

const key = ['addons'];

/** Addons forward events to webhooks and chat tools. */
export function AddonsTab() {
  const can = useCan();
  const whyNot = useWhyNot();
  const admin = can('ADMIN');
  const list = useQuery({
    queryKey: key,
    enabled: admin,
    queryFn: () =>
      unwrap<{ addons: AddonView[]; providers: AddonProviderDefinition[] }>(api.GET('/api/admin/addons')),
    refetchInterval: (query) => deliveryPolling(query.state.data?.addons),
  });
  const providers = list.data?.providers ?? [];
  const [provider, setProvider] = useState('');
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [events, setEvents] = useState<string[]>(['feature-created', 'feature-updated']);
  const [created, setCreated] = useState<{ id: number; signingSecret: string } | null>(null);
  const eventTypes = (list: string[]) => EVENT_TYPES.filter((t) => list.includes(t));
  const chosen = providers.find((p) => p.name === (provider || providers[0]?.name));
  const create = useApiMutation({
    mutationFn: () =>
      unwrap<CreatedAddon>(
        api.POST('/api/admin/addons', {
          body: { provider: chosen?.name ?? '', parameters, events: eventTypes(events), enabled: true },
        }),
      ),
    invalidates: [key],
    success: 'Addon created',
    toastErrors: false,
    onSuccess: (created) => {
      setParameters({});
      setCreated(created.signingSecret ? { id: created.id, signingSecret: created.signingSecret } : null);
    },
  });
  const errors = useFormErrors(create.error, [
    'provider',
    'events',
    ...(chosen?.parameters ?? []).map((p) => `parameters.${p.name}`),
  ]);
  const toggle = useApiMutation({
    mutationFn: (a: AddonView) =>
      unwrap(
        api.PUT('/api/admin/addons/{id}', {
          params: { path: { id: String(a.id) } },
          body: {
            provider: a.provider,
            description: a.description,
            enabled: !a.enabled,
            parameters: a.parameters,
            events: eventTypes(a.events),
            projects: a.projects,
            environments: a.environments,
          },
        }),
      ),
    invalidates: [key],
  });
  const remove = useApiMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/admin/addons/{id}', { params: { path: { id: String(id) } } })),
    invalidates: [key],
    success: 'Addon deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = [
      ...(chosen?.parameters ?? [])
        .filter((p) => p.required && !parameters[p.name]?.trim())
        .map((p) => ({ path: `parameters.${p.name}`, message: `${p.displayName} is required.` })),
      ...(events.length === 0 ? [{ path: 'events', message: 'Pick at least one event type.' }] : []),
    ];
    if (errors.report(problems)) create.mutate();
  };
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
                Deliveries
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
        <form onSubmit={submit} noValidate>
          <Field label="Provider" htmlFor="addon-provider">
            <select
              id="addon-provider"
              value={chosen?.name ?? ''}
              onChange={(e) => setProvider(e.target.value)}
            >
              {providers.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.displayName}
                </option>
              ))}
            </select>
          </Field>
          {chosen?.parameters.map((p) => (
            <Field
              key={p.name}
              label={`${p.displayName}${p.required ? '' : ' (optional)'}`}
              htmlFor={`addon-${p.name}`}
              hint={p.description}
              error={errors.of(`parameters.${p.name}`)}
            >
              {p.type === 'textfield' ? (
                <textarea
                  id={`addon-${p.name}`}
                  value={parameters[p.name] ?? ''}
                  onChange={(e) => setParameters({ ...parameters, [p.name]: e.target.value })}
                />
              ) : (
                <input
                  id={`addon-${p.name}`}
                  type={p.sensitive ? 'password' : 'text'}
                  value={parameters[p.name] ?? ''}
                  onChange={(e) => setParameters({ ...parameters, [p.name]: e.target.value })}
                />
              )}
            </Field>
          ))}
          <div className={errors.of('events') ? 'field field-invalid' : 'field'}>
            <span style={{ fontWeight: 550, fontSize: 13 }}>Events</span>
            <fieldset className="chips" aria-label="Events">
              {(chosen?.events ?? []).slice(0, 24).map((ev) => (
                <button
                  key={ev}
                  type="button"
                  className="chip-toggle"
                  aria-pressed={events.includes(ev)}
                  onClick={() =>
                    setEvents(events.includes(ev) ? events.filter((x) => x !== ev) : [...events, ev])
                  }
                >
                  {ev}
                </button>
              ))}
            </fieldset>
            {errors.of('events') ? (
              <div className="field-error" role="alert">
                {errors.of('events')}
              </div>
            ) : null}
          </div>
          <ErrorNotice error={errors.rest} />
          <div className="form-actions">
            <ActionButton
              type="submit"
              className="btn btn-primary"
              disabledReason={whyNot('CREATE_ADDON') ?? (chosen ? null : 'No addon providers are available.')}
            >
              Create addon
            </ActionButton>
          </div>
        </form>
      </Card>
    </div>
  );
}
