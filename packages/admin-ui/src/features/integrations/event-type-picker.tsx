import { useId, useState } from 'react';

// Headings for the first word of an event type; any other word is shown capitalised.
const GROUP_NAMES: Record<string, string> = {
  feature: 'Features',
  features: 'Features',
  drop: 'Features',
  strategy: 'Strategies',
  project: 'Projects',
  change: 'Change requests',
  context: 'Context fields',
  tag: 'Tags',
  segment: 'Segments',
  environment: 'Environments',
  api: 'API tokens',
  pat: 'Personal access tokens',
  public: 'Public signup',
  user: 'Users',
  group: 'Groups',
  role: 'Roles',
  addon: 'Addons',
  signal: 'Signals',
  actions: 'Actions',
  service: 'Service accounts',
  banner: 'Banners',
  setting: 'Settings',
  client: 'Clients',
  application: 'Clients',
  db: 'Database',
  default: 'Strategies',
};

export const groupOf = (type: string): string => {
  const word = type.split('-')[0] ?? type;
  return GROUP_NAMES[word] ?? word.charAt(0).toUpperCase() + word.slice(1);
};

/** The event types in groups, in the order each group first appears in the list. */
export function groupEventTypes(types: readonly string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const t of types) {
    const g = groupOf(t);
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  return [...groups];
}

interface Props {
  /** Every type the provider can send (the server's list, which is core's). */
  types: readonly string[];
  selected: readonly string[];
  onChange(selected: string[]): void;
  error?: string | null;
}

/** Event types to send: searchable, grouped, with a whole group chosen at once. */
export function EventTypePicker({ types, selected, onChange, error }: Props) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = groupEventTypes(types)
    .map(([group, list]): [string, string[]] => [
      group,
      needle && !group.toLowerCase().includes(needle) ? list.filter((t) => t.includes(needle)) : list,
    ])
    .filter(([, list]) => list.length > 0);
  const toggle = (t: string) =>
    onChange(selected.includes(t) ? selected.filter((x) => x !== t) : [...selected, t]);
  const setGroup = (list: string[], on: boolean) =>
    onChange(on ? [...new Set([...selected, ...list])] : selected.filter((t) => !list.includes(t)));
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={`${id}-search`}>
        Events{' '}
        <span className="muted">
          ({selected.length} of {types.length} selected)
        </span>
      </label>
      <div className="row">
        <input
          id={`${id}-search`}
          type="search"
          placeholder="Search event types…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          style={{ flex: 1 }}
        />
        <button type="button" className="btn btn-small btn-ghost" onClick={() => onChange([...types])}>
          All
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => onChange([])}>
          None
        </button>
      </div>
      <section className="event-groups" aria-label="Event types">
        {shown.length === 0 ? <p className="muted">No event type matches “{filter}”.</p> : null}
        {shown.map(([group, list]) => {
          const all = list.every((t) => selected.includes(t));
          return (
            <fieldset key={group} className="event-group" aria-label={group}>
              <legend>
                {group}
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`${all ? 'Clear' : 'Select'} every ${group} event shown`}
                  onClick={() => setGroup(list, !all)}
                >
                  {all ? 'Clear' : 'Select all'}
                </button>
              </legend>
              <div className="chips">
                {list.map((t) => (
                  <button
                    key={t}
                    type="button"
                    className="chip-toggle"
                    aria-pressed={selected.includes(t)}
                    onClick={() => toggle(t)}
                  >
                    {t}
                  </button>
                ))}
              </div>
            </fieldset>
          );
        })}
      </section>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
