import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { parentSearchQueryOptions } from './api/feature';

/** `value`, once it has stayed the same for `ms`: one request per pause in typing. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const PAGE = 10;

interface Props {
  project: string;
  /** Names never offered: the feature itself and its current parents. */
  exclude: readonly string[];
  value: string;
  onChange(name: string): void;
  disabled?: boolean;
}

/**
 * Finds a parent feature by asking the server's feature search (the project's features, matching
 * what was typed, a page at a time) instead of loading every feature of the project.
 */
export function ParentPicker({ project, exclude, value, onChange, disabled }: Props) {
  const id = useId();
  const [text, setText] = useState(value);
  const query = useSettled(text.trim(), 250);
  const [open, setOpen] = useState(false);
  const search = useQuery({
    ...parentSearchQueryOptions(project, query, Math.min(100, PAGE + exclude.length)),
    enabled: open,
  });
  // While the next answer is on its way, the last one shows only what still matches the text.
  // (The server also matches descriptions and tags, so its own answer is shown as it is.)
  const pending = query !== text.trim() ? text.trim().toLowerCase() : '';
  const found = (search.data?.features ?? [])
    .filter((f) => !exclude.includes(f.name) && f.name.toLowerCase().includes(pending))
    .slice(0, PAGE);
  const more = (search.data?.total ?? 0) - exclude.length > found.length;
  const pick = (name: string) => {
    setText(name);
    onChange(name);
    setOpen(false);
  };
  return (
    <div className="parent-picker">
      <input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-results`}
        aria-label="Parent feature"
        placeholder="Type to search this project's features…"
        autoComplete="off"
        value={text}
        disabled={disabled}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          // Enter takes the first match, Escape closes the list.
          if (e.key === 'Escape') setOpen(false);
          if (e.key !== 'Enter') return;
          e.preventDefault();
          const first = found[0];
          if (first) pick(first.name);
        }}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          if (value) onChange('');
        }}
      />
      {open && !value ? (
        <ul id={`${id}-results`} className="picker-results" aria-label="Matching features">
          {search.isPending ? <li className="muted">Searching…</li> : null}
          {search.data && found.length === 0 ? <li className="muted">No matching feature.</li> : null}
          {found.map((f) => (
            <li key={f.name}>
              <button type="button" onClick={() => pick(f.name)}>
                {f.name} <span className="muted">{f.type}</span>
              </button>
            </li>
          ))}
          {more ? <li className="muted">More match: keep typing to narrow down.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
