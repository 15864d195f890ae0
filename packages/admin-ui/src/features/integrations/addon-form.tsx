import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AddonProviderDefinition, AddonView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { ErrorNotice, Field } from '../../components/ui/page';
import { EVENT_TYPES } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useProjects } from '../projects/api';
import { type CreatedAddon, createAddon, updateAddon } from './api/addons';
import { listEnvironmentsQueryOptions } from './api/environments';
import { EventTypePicker } from './event-type-picker';

const text = (v: unknown) =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

/** Names to pick from, where none picked means all (the reference's empty filter). */
function ScopeChips({
  label,
  options,
  selected,
  onChange,
  error,
}: {
  label: string;
  options: string[];
  selected: string[];
  onChange(v: string[]): void;
  error?: string | null;
}) {
  return (
    <Field
      label={label}
      hint={
        selected.length
          ? `Only the ${selected.length === 1 ? 'one' : selected.length} picked.`
          : 'None picked: all.'
      }
      error={error}
    >
      <fieldset className="chips" aria-label={label} style={{ border: 0, padding: 0 }}>
        {options.map((o) => (
          <button
            key={o}
            type="button"
            className="chip-toggle"
            aria-pressed={selected.includes(o)}
            onClick={() =>
              onChange(selected.includes(o) ? selected.filter((x) => x !== o) : [...selected, o])
            }
          >
            {o}
          </button>
        ))}
      </fieldset>
    </Field>
  );
}

interface Props {
  providers: AddonProviderDefinition[];
  /** The addon being edited; a new one when absent. */
  addon?: AddonView;
  onSaved(result: CreatedAddon | null): void;
  /** Why the caller may not save (no CREATE_ADDON or UPDATE_ADDON), or null when they may. */
  refused: string | null;
}

/** An addon's configuration: provider, description, parameters, events, and project/environment filters. */
export function AddonForm({ providers, addon, onSaved, refused }: Props) {
  const [provider, setProvider] = useState(addon?.provider ?? '');
  const chosen = providers.find((p) => p.name === (provider || providers[0]?.name));
  const [description, setDescription] = useState(addon?.description ?? '');
  const [parameters, setParameters] = useState<Record<string, unknown>>(addon?.parameters ?? {});
  const [events, setEvents] = useState<string[]>(addon?.events ?? ['feature-created', 'feature-updated']);
  const [projects, setProjects] = useState<string[]>(addon?.projects ?? []);
  const [environments, setEnvironments] = useState<string[]>(addon?.environments ?? []);
  const projectNames = (useProjects().data ?? []).map((p) => p.id);
  const environmentNames = (useQuery(listEnvironmentsQueryOptions()).data?.environments ?? []).map(
    (e) => e.name,
  );
  // Only types the server knows (core's list) are sent, in core's order.
  const body = () => ({
    provider: chosen?.name ?? '',
    description: description.trim() || null,
    enabled: addon?.enabled ?? true,
    parameters,
    events: EVENT_TYPES.filter((t) => events.includes(t)),
    projects,
    environments,
  });
  const save = useApiMutation({
    mutationFn: (): Promise<CreatedAddon | null> =>
      addon ? updateAddon(addon.id, body()).then(() => null) : createAddon(body()),
    invalidates: [['addons']],
    success: addon ? 'Addon saved' : 'Addon created',
    toastErrors: false,
    onSuccess: (result) => {
      if (!addon) setParameters({});
      onSaved(result);
    },
  });
  const errors = useFormErrors(save.error, [
    'provider',
    'description',
    'events',
    'projects',
    'environments',
    ...(chosen?.parameters ?? []).map((p) => `parameters.${p.name}`),
  ]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = [
      ...(chosen?.parameters ?? [])
        .filter((p) => p.required && !text(parameters[p.name]).trim())
        .map((p) => ({ path: `parameters.${p.name}`, message: `${p.displayName} is required.` })),
      ...(events.length === 0 ? [{ path: 'events', message: 'Pick at least one event type.' }] : []),
    ];
    if (errors.report(problems)) save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field label="Provider" htmlFor="addon-provider" error={errors.of('provider')}>
        <select
          id="addon-provider"
          value={chosen?.name ?? ''}
          disabled={addon !== undefined}
          onChange={(e) => setProvider(e.target.value)}
        >
          {providers.map((p) => (
            <option key={p.name} value={p.name}>
              {p.displayName}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Description (optional)" htmlFor="addon-description" error={errors.of('description')}>
        <input id="addon-description" value={description} onChange={(e) => setDescription(e.target.value)} />
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
              value={text(parameters[p.name])}
              onChange={(e) => setParameters({ ...parameters, [p.name]: e.target.value })}
            />
          ) : (
            <input
              id={`addon-${p.name}`}
              type={p.sensitive ? 'password' : 'text'}
              value={text(parameters[p.name])}
              onChange={(e) => setParameters({ ...parameters, [p.name]: e.target.value })}
            />
          )}
        </Field>
      ))}
      <EventTypePicker
        types={chosen?.events ?? []}
        selected={events}
        onChange={setEvents}
        error={errors.of('events')}
      />
      <ScopeChips
        label="Projects"
        options={projectNames}
        selected={projects}
        onChange={setProjects}
        error={errors.of('projects')}
      />
      <ScopeChips
        label="Environments"
        options={environmentNames}
        selected={environments}
        onChange={setEnvironments}
        error={errors.of('environments')}
      />
      <ErrorNotice error={errors.rest} />
      <div className="form-actions">
        <ActionButton
          type="submit"
          className="btn btn-primary"
          disabled={save.isPending}
          disabledReason={refused ?? (chosen ? null : 'No addon providers are available.')}
        >
          {addon ? 'Save addon' : 'Create addon'}
        </ActionButton>
      </div>
    </form>
  );
}
