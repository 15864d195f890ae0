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

/** The form-error fields of the rows (`legalValues[1].value`), under the list's own `legalValues`. */
export const legalValueFields = (count: number): string[] => [
  'legalValues',
  ...Array.from({ length: count }, (_, i) => [
    `legalValues[${i}].value`,
    `legalValues[${i}].description`,
  ]).flat(),
];

/** A message in plain words ("Lists "free" twice.") said of the row's part ("Value lists…"). */
const of = (part: string, message: string | undefined) =>
  message ? `${part} ${message.charAt(0).toLowerCase()}${message.slice(1)}` : undefined;

/** Legal values as rows of value and description: added, changed and removed in place. */
export function LegalValueRows({
  rows,
  onChange,
  errorOf = () => undefined,
}: {
  rows: readonly LegalValueDraft[];
  onChange(rows: LegalValueDraft[]): void;
  /** The message for a form-error field (see `legalValueFields`), shown beside its row. */
  errorOf?(field: string): string | undefined;
}) {
  const set = (i: number, patch: Partial<LegalValueDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="edit-rows">
      {rows.length === 0 ? <span className="muted">Any value is allowed.</span> : null}
      {rows.map((r, i) => {
        const error =
          of('Value', errorOf(`legalValues[${i}].value`)) ??
          of('Description', errorOf(`legalValues[${i}].description`));
        return (
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
            {error ? (
              <div className="field-error" role="alert">
                {error}
              </div>
            ) : null}
          </fieldset>
        );
      })}
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
