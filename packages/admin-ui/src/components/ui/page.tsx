import { type ReactNode, useEffect, useRef } from 'react';
import { errorMessage } from '../../api/errors';

/** The title row of a page with optional actions on the right. */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={className ? `card ${className}` : 'card'}>
      {title || actions ? (
        <div className="card-head">
          {title ? <h2>{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <div className="loading" role="status">
    <span className="spinner" aria-hidden="true" />
    {label}
  </div>
);

export const EmptyState = ({ children }: { children: ReactNode }) => <div className="empty">{children}</div>;

/** An inline error showing the server's message. */
export const ErrorNotice = ({ error }: { error: unknown }) =>
  error ? (
    <div className="notice notice-error" role="alert">
      {errorMessage(error)}
    </div>
  ) : null;

export const Badge = ({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info';
}) => <span className={`badge badge-${tone}`}>{children}</span>;

/** A labelled form control with its validation message next to it. */
export function Field({
  label,
  error,
  hint,
  children,
  htmlFor,
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  htmlFor?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The first field a refusal lands on is brought into view and focused: a message under a field
  // scrolled out of sight (a long addon form) would go unseen.
  useEffect(() => {
    const field = ref.current;
    if (!error || !field) return;
    const first = field.closest('form, [role="dialog"]')?.querySelector('.field-invalid');
    if (first !== field) return;
    field.scrollIntoView({ block: 'nearest' });
    field.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
  }, [error]);
  return (
    <div ref={ref} className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint ? <div className="hint">{hint}</div> : null}
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

// Intl formatters are made once, on first use: `toLocaleString` with options builds a new one per
// call (a table's dates add up), and a new page's first Intl formatter of any kind takes 15-30 ms (the
// locale's data), which at module level held up every page's start. The project table's dates use
// `formatDay`, which needs none, so its first rows do not wait for it.
let dates: Intl.DateTimeFormat | undefined;
let relative: Intl.RelativeTimeFormat | undefined;

/** A time as the browser's locale writes it, e.g. "Nov 27, 2026, 8:15 PM" ("—" without one). */
export const formatDate = (value: string | null | undefined): string => {
  if (!value) return '—';
  const date = new Date(value);
  // `toLocaleString` says "Invalid Date" where `format` would throw.
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  dates ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return dates.format(date);
};

const twoDigits = (n: number): string => String(n).padStart(2, '0');

/**
 * The calendar day of a time in the browser's time zone, e.g. "2026-11-27" ("—" without one): the
 * same in every locale, and written without Intl (see above).
 */
export const formatDay = (value: string | null | undefined): string => {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
};

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** How long ago a time is, e.g. "3 min. ago" (a time ahead of this clock counts as now). */
export const formatRelative = (value: string | null | undefined, now = Date.now()): string => {
  if (!value) return '—';
  const diff = Math.min(0, new Date(value).getTime() - now);
  const [unit, ms] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? (['second', 1_000] as const);
  relative ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  return relative.format(Math.round(diff / ms), unit);
};
