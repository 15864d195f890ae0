export interface LegalValueDraft {
  value: string;
  description: string;
}

/** The drafts as the API takes them: trimmed, a description only where one was written. */
export const toLegalValues = (rows: readonly LegalValueDraft[]) =>
  rows.map((r) => ({
    value: r.value.trim(),
    ...(r.description.trim() ? { description: r.description.trim() } : {}),
  }));

export const fromLegalValues = (values: readonly { value: string; description?: string | undefined }[]) =>
  values.map((v) => ({ value: v.value, description: v.description ?? '' }));

/** Legal values as rows of value and description: added, changed and removed in place. */
export function LegalValueRows({
  rows,
  onChange,
  errors,
}: {
  rows: readonly LegalValueDraft[];
  onChange(rows: LegalValueDraft[]): void;
  /** Messages by row index, shown beside the row. */
  errors?: Record<number, string>;
}) {
  const set = (i: number, patch: Partial<LegalValueDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="edit-rows">
      {rows.length === 0 ? <span className="muted">Any value is allowed.</span> : null}
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain controlled values without identity
        <fieldset key={i} className="edit-row override-row" aria-label={`Legal value ${i + 1}`}>
          <input aria-label="Value" value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
          <input
            aria-label="Value description"
            placeholder="Description (optional)"
            value={r.description}
            onChange={(e) => set(i, { description: e.target.value })}
          />
          <button
            type="button"
            className="btn btn-small btn-ghost"
            aria-label={`Remove legal value ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
          {errors?.[i] ? (
            <div className="field-error" role="alert">
              {errors[i]}
            </div>
          ) : null}
        </fieldset>
      ))}
      <div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => onChange([...rows, { value: '', description: '' }])}
        >
          Add legal value
        </button>
      </div>
    </div>
  );
}
