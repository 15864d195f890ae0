import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebounced } from '../../lib/use-debounced';
import { displayName, groupSearchQueryOptions, userSearchQueryOptions } from './api';

/** Whom a project role can be given to. */
export type Subject = { kind: 'user' | 'group'; id: number; name: string };

/** At most this many matches are offered; more matching says "keep typing". */
const SHOWN = 10;
/** Groups offered among them, when users fill the rest. */
const GROUPS_SHOWN = 3;

interface Props {
  id: string;
  /** Which kinds it offers (default both). */
  kinds?: readonly Subject['kind'][];
  /** Its accessible name when no label points at it. */
  label?: string;
  /** Members already: never offered. */
  exclude: readonly Pick<Subject, 'kind' | 'id'>[];
  value: Subject | null;
  onChange(subject: Subject | null): void;
  invalid?: boolean;
}

/**
 * Finds a user or group by asking the server's searches (users.search, groups.search) once typing
 * pauses for 250 ms, instead of loading every user: fine at thousands of users.
 */
export function MemberPicker({
  id,
  kinds = ['user', 'group'],
  label,
  exclude,
  value,
  onChange,
  invalid,
}: Props) {
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebounced(text.trim(), 250);
  const users = useQuery({ ...userSearchQueryOptions(q), enabled: open && kinds.includes('user') });
  const groups = useQuery({ ...groupSearchQueryOptions(q), enabled: open && kinds.includes('group') });
  const taken = (kind: Subject['kind'], subjectId: number) =>
    exclude.some((e) => e.kind === kind && e.id === subjectId);
  // While the answer for the latest text is on its way, the last one shows only what still matches it.
  const typed = text.trim().toLowerCase();
  const stillMatches = (stale: boolean, ...values: (string | null | undefined)[]) =>
    !stale || values.some((v) => v?.toLowerCase().includes(typed));
  const foundGroups: Subject[] = (groups.data ?? [])
    .filter(
      (g) => !taken('group', g.id) && stillMatches(groups.isPlaceholderData || q !== text.trim(), g.name),
    )
    .map((g) => ({ kind: 'group', id: g.id, name: g.name }));
  const foundUsers: (Subject & { detail: string })[] = (users.data ?? [])
    .filter(
      (u) =>
        !taken('user', u.id) &&
        stillMatches(users.isPlaceholderData || q !== text.trim(), u.name, u.email, u.username),
    )
    .map((u) => ({ kind: 'user', id: u.id, name: displayName(u), detail: u.email }));
  const shownUsers = foundUsers.slice(0, SHOWN - Math.min(foundGroups.length, GROUPS_SHOWN));
  const shownGroups = foundGroups.slice(0, SHOWN - shownUsers.length);
  const shown: (Subject & { detail?: string })[] = [...shownUsers, ...shownGroups];
  const more = foundUsers.length + foundGroups.length > shown.length;
  const detailOf = (s: Subject & { detail?: string }) =>
    s.kind === 'group'
      ? `group, ${(groups.data ?? []).find((g) => g.id === s.id)?.userCount ?? 0} users`
      : s.detail && s.detail !== s.name
        ? s.detail
        : '';
  const pick = (subject: Subject) => {
    setText(subject.name);
    onChange(subject);
    setOpen(false);
  };
  const searching = (users.isFetching || groups.isFetching || q !== text.trim()) && open;
  const answered = (!kinds.includes('user') || users.data) && (!kinds.includes('group') || groups.data);
  return (
    <div className="parent-picker">
      <input
        id={id}
        role="combobox"
        aria-expanded={open && !value}
        aria-controls={`${id}-results`}
        aria-autocomplete="list"
        aria-label={label}
        aria-invalid={invalid || undefined}
        placeholder={kinds.includes('group') ? 'Type a name, e-mail or group…' : 'Type a name or e-mail…'}
        autoComplete="off"
        value={text}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((a) => (shown.length ? (a + step + shown.length) % shown.length : 0));
          }
          if (e.key !== 'Enter' || value) return;
          e.preventDefault();
          const chosen = shown[active] ?? shown[0];
          if (chosen) pick(chosen);
        }}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
          if (value) onChange(null);
        }}
      />
      {open && !value ? (
        <ul
          id={`${id}-results`}
          className="picker-results"
          aria-label={kinds.includes('group') ? 'Matching users and groups' : 'Matching users'}
        >
          {searching && !shown.length ? <li className="muted">Searching…</li> : null}
          {!searching && answered && shown.length === 0 ? (
            <li className="muted">
              {kinds.includes('group') ? 'No user or group matches.' : 'No user matches.'}
            </li>
          ) : null}
          {shown.map((s, i) => (
            <li key={`${s.kind}-${s.id}`}>
              <button
                type="button"
                aria-current={i === active}
                data-testid={`pick-${s.kind}-${s.id}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
              >
                {s.name} <span className="muted">{detailOf(s)}</span>
              </button>
            </li>
          ))}
          {more ? <li className="muted">More match: keep typing to narrow down.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
