import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';
import type { AddonProviderDefinition, AddonView, CreatedAddon, Environment } from '../../api/types';
import { ErrorNotice, Field } from '../../components/ui/page';
import { EVENT_TYPES } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useProjects } from '../projects/api';
import { EventTypePicker } from './event-type-picker';

/** The property a refusal names (`"parameters.url" must…` → `parameters.url`), to show it there. */
const serverPath = (error: unknown): string | null =>
  error instanceof ApiError ? (/^"([A-Za-z0-9_.]+)/.exec(error.message)?.[1] ?? null) : null;

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
  /** Whether the caller may save (CREATE_ADDON or UPDATE_ADDON). */
  allowed: boolean;
}

/** An addon's configuration: provider, description, parameters, events, and project/environment filters. */
export function AddonForm({ providers, addon, onSaved, allowed }: Props) {
  const [provider, setProvider] = useState(addon?.provider ?? '');
  const chosen = providers.find((p) => p.name === (provider || providers[0]?.name));
  const [description, setDescription] = useState(addon?.description ?? '');
  const [parameters, setParameters] = useState<Record<string, unknown>>(addon?.parameters ?? {});
  const [events, setEvents] = useState<string[]>(addon?.events ?? ['feature-created', 'feature-updated']);
  const [projects, setProjects] = useState<string[]>(addon?.projects ?? []);
  const [environments, setEnvironments] = useState<string[]>(addon?.environments ?? []);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const projectNames = (useProjects().data ?? []).map((p) => p.id);
  const environmentNames = (
    useQuery({
      queryKey: ['environments'],
      queryFn: () => unwrap<{ environments: Environment[] }>(api.GET('/api/admin/environments')),
    }).data?.environments ?? []
  ).map((e) => e.name);
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
    mutationFn: () =>
      addon
        ? unwrap<null>(
            api.PUT('/api/admin/addons/{id}', { params: { path: { id: String(addon.id) } }, body: body() }),
          )
        : unwrap<CreatedAddon>(api.POST('/api/admin/addons', { body: body() })),
    invalidates: [['addons']],
    success: addon ? 'Addon saved' : 'Addon created',
    toastErrors: false,
    onSuccess: (result) => {
      if (!addon) setParameters({});
      onSaved(result);
    },
  });
  const path = serverPath(save.error);
  const server: Record<string, string> = path && save.error ? { [path]: save.error.message } : {};
  const shown = Object.keys(problems).length ? problems : server;
  const placed = Object.keys(shown).some(
    (k) =>
      ['description', 'events', 'projects', 'environments', 'provider'].includes(k) ||
      k.startsWith('parameters.'),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    for (const p of chosen?.parameters ?? [])
      if (p.required && !text(parameters[p.name]).trim())
        found[`parameters.${p.name}`] = `${p.displayName} is required.`;
    if (events.length === 0) found.events = 'Pick at least one event type.';
    setProblems(found);
    if (!Object.keys(found).length) save.mutate();
  };
  const paramError = (name: string) =>
    Object.entries(shown).find(
      ([k]) => k === `parameters.${name}` || k.startsWith(`parameters.${name}.`),
    )?.[1];
  return (
    <form onSubmit={submit} noValidate>
      <Field label="Provider" htmlFor="addon-provider" error={shown.provider}>
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
      <Field label="Description (optional)" htmlFor="addon-description" error={shown.description}>
        <input id="addon-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      {chosen?.parameters.map((p) => (
        <Field
          key={p.name}
          label={`${p.displayName}${p.required ? '' : ' (optional)'}`}
          htmlFor={`addon-${p.name}`}
          hint={p.description}
          error={paramError(p.name)}
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
        error={shown.events}
      />
      <ScopeChips
        label="Projects"
        options={projectNames}
        selected={projects}
        onChange={setProjects}
        error={shown.projects}
      />
      <ScopeChips
        label="Environments"
        options={environmentNames}
        selected={environments}
        onChange={setEnvironments}
        error={shown.environments}
      />
      {placed ? null : <ErrorNotice error={save.error} />}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!allowed || !chosen || save.isPending}>
          {addon ? 'Save addon' : 'Create addon'}
        </button>
      </div>
    </form>
  );
}
