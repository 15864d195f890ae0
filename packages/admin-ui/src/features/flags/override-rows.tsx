import type { ContextField } from '../../api/types';
import { ValuesInput } from '../../components/values-input';
import type { Problem } from '../../lib/form-errors';

export interface OverrideDraft {
  contextName: string;
  values: string[];
}

/** What is wrong with one override row, in words for beside the row. */
function rowProblem(overrides: readonly OverrideDraft[], i: number): string | null {
  const o = overrides[i];
  if (!o) return null;
  if (!o.contextName) return 'Pick a context field.';
  if (!o.values.length) return 'Enter at least one value.';
  if (overrides.findIndex((x) => x.contextName === o.contextName) !== i)
    return `${o.contextName} is already overridden above.`;
  return null;
}

/**
 * What the API would reject, or what would silently never match, about a variant's overrides: each
 * row's problem with the row's path (`overrides[1]`), for the form to show beside the row.
 */
export function overrideProblems(overrides: readonly OverrideDraft[]): Problem[] {
  return [...overrides.keys()].flatMap((i) => {
    const message = rowProblem(overrides, i);
    return message ? [{ path: `overrides[${i}]`, message }] : [];
  });
}

interface Props {
  overrides: readonly OverrideDraft[];
  onChange(overrides: OverrideDraft[]): void;
  contextFields: readonly ContextField[];
  /** The error for a row by its path (`overrides[1]`), shown beside the row. */
  errorOf?(path: string): string | undefined;
}

/** A variant's overrides as rows: which context field, and the values that always get this variant. */
export function OverrideRows({ overrides, onChange, contextFields, errorOf = () => undefined }: Props) {
  const set = (i: number, patch: Partial<OverrideDraft>) =>
    onChange(overrides.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const names = contextFields.map((f) => f.name);
  return (
    <fieldset className="override-rows" aria-label="Overrides">
      <legend>Overrides: these values always get this variant</legend>
      {overrides.length === 0 ? <p className="muted">No overrides.</p> : null}
      {overrides.map((o, i) => {
        const legal = contextFields.find((f) => f.name === o.contextName)?.legalValues ?? [];
        const problem = errorOf(`overrides[${i}]`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values; ValuesInput resyncs its text when a row shifts
          <fieldset key={i} className="override-row" aria-label={`Override ${i + 1}`}>
            <select
              aria-label="Context field"
              value={o.contextName}
              onChange={(e) => set(i, { contextName: e.target.value })}
            >
              <option value="">Context field…</option>
              {/* A name saved before its context field was deleted stays choosable. */}
              {(names.includes(o.contextName) || !o.contextName ? names : [o.contextName, ...names]).map(
                (n) => (
                  <option key={n}>{n}</option>
                ),
              )}
            </select>
            <ValuesInput
              aria-label="Values (comma separated)"
              placeholder={legal.length ? legal.map((l) => l.value).join(', ') : 'alice, bob'}
              values={o.values}
              onValuesChange={(values) => set(i, { values })}
            />
            <button
              type="button"
              className="btn btn-small btn-ghost"
              aria-label={`Remove override ${i + 1}`}
              onClick={() => onChange(overrides.filter((_, j) => j !== i))}
            >
              Remove
            </button>
            {legal.length ? (
              <fieldset className="chips override-legal" aria-label="Legal values">
                {legal.map((l) => (
                  <button
                    key={l.value}
                    type="button"
                    className="chip-toggle"
                    aria-pressed={o.values.includes(l.value)}
                    title={l.description}
                    onClick={() =>
                      set(i, {
                        values: o.values.includes(l.value)
                          ? o.values.filter((v) => v !== l.value)
                          : [...o.values, l.value],
                      })
                    }
                  >
                    {l.value}
                  </button>
                ))}
              </fieldset>
            ) : null}
            {problem ? (
              <div className="field-error" role="alert">
                {problem}
              </div>
            ) : null}
          </fieldset>
        );
      })}
      <button
        type="button"
        className="btn btn-small"
        onClick={() => onChange([...overrides, { contextName: '', values: [] }])}
      >
        Add override
      </button>
    </fieldset>
  );
}
