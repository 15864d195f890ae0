import type { ContextField, Payload } from '../../api/types';
import { type OverrideDraft, OverrideRows, overridesProblem } from './override-rows';

const PAYLOAD_TYPES = ['json', 'csv', 'string', 'number'] as const;

export interface VariantDraft {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
  overrides?: OverrideDraft[];
}

/** Variable variants share what fixed ones leave of 1000, like the server computes. */
export function balance(variants: VariantDraft[]): VariantDraft[] {
  const fixed = variants.filter((v) => v.weightType === 'fix').reduce((s, v) => s + v.weight, 0);
  const variable = variants.filter((v) => v.weightType !== 'fix');
  if (!variable.length) return variants;
  const share = Math.max(0, 1000 - fixed);
  const each = Math.floor(share / variable.length);
  let remainder = share - each * variable.length;
  return variants.map((v) => {
    if (v.weightType === 'fix') return v;
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return { ...v, weight: each + extra };
  });
}

/** What the API would reject about a variant list. */
export function variantsProblem(variants: VariantDraft[]): string | null {
  const names = new Set<string>();
  for (const v of variants) {
    if (!v.name.trim()) return 'Every variant needs a name.';
    if (names.has(v.name)) return `Variant names must be unique (${v.name}).`;
    names.add(v.name);
    if (!Number.isInteger(v.weight) || v.weight < 0 || v.weight > 1000)
      return 'Weights are whole numbers from 0 to 1000.';
    if (v.payload?.type === 'json') {
      try {
        JSON.parse(v.payload.value);
      } catch {
        return `The payload of ${v.name} is not valid JSON.`;
      }
    }
    if (v.payload?.type === 'number' && Number.isNaN(Number(v.payload.value)))
      return `The payload of ${v.name} is not a number.`;
    const overrides = overridesProblem(v.overrides ?? []);
    if (overrides) return `Variant ${v.name}, ${overrides}`;
  }
  const fixed = variants.filter((v) => v.weightType === 'fix').reduce((s, v) => s + v.weight, 0);
  if (fixed > 1000) return 'Fixed weights add up to more than 1000.';
  return null;
}

interface Props {
  variants: VariantDraft[];
  onChange(v: VariantDraft[]): void;
  stickinessOptions: string[];
  withOverrides?: boolean;
  /** For the overrides' context field picker. */
  contextFields?: readonly ContextField[];
  /** Show problems beside the rows (after a save was tried). */
  showProblems?: boolean;
}

/** Editable variant rows: name, weight (fix or variable), stickiness, payload and overrides. */
export function VariantRows({
  variants,
  onChange,
  stickinessOptions,
  withOverrides,
  contextFields,
  showProblems,
}: Props) {
  const update = (i: number, patch: Partial<VariantDraft>) =>
    onChange(balance(variants.map((v, j) => (j === i ? { ...v, ...patch } : v))));
  return (
    <div className="stack">
      {variants.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
        <fieldset key={i} className="strategy" aria-label={`Variant ${i + 1}`}>
          <div className="form-grid">
            <label className="field">
              <span>Name</span>
              <input value={v.name} onChange={(e) => update(i, { name: e.target.value })} />
            </label>
            <label className="field">
              <span>Weight ({(v.weight / 10).toFixed(1)}%)</span>
              <div className="row">
                <select
                  aria-label="Weight type"
                  value={v.weightType}
                  style={{ width: 'auto' }}
                  onChange={(e) => update(i, { weightType: e.target.value === 'fix' ? 'fix' : 'variable' })}
                >
                  <option value="variable">variable</option>
                  <option value="fix">fix</option>
                </select>
                <input
                  aria-label="Weight (0–1000)"
                  type="number"
                  min={0}
                  max={1000}
                  style={{ width: 100 }}
                  disabled={v.weightType !== 'fix'}
                  value={v.weight}
                  onChange={(e) => update(i, { weight: Number(e.target.value) })}
                />
              </div>
            </label>
            <label className="field">
              <span>Stickiness</span>
              <select value={v.stickiness} onChange={(e) => update(i, { stickiness: e.target.value })}>
                {stickinessOptions.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Payload type</span>
              <select
                value={v.payload?.type ?? ''}
                onChange={(e) => {
                  const type = PAYLOAD_TYPES.find((t) => t === e.target.value);
                  update(i, { payload: type ? { type, value: v.payload?.value ?? '' } : undefined });
                }}
              >
                <option value="">No payload</option>
                <option value="string">string</option>
                <option value="json">json</option>
                <option value="number">number</option>
                <option value="csv">csv</option>
              </select>
            </label>
          </div>
          {v.payload ? (
            <label className="field">
              <span>Payload value</span>
              <textarea
                value={v.payload.value}
                onChange={(e) =>
                  update(i, { payload: { type: v.payload?.type ?? 'string', value: e.target.value } })
                }
              />
            </label>
          ) : null}
          {withOverrides ? (
            <OverrideRows
              overrides={v.overrides ?? []}
              contextFields={contextFields ?? []}
              showProblems={showProblems}
              onChange={(overrides) => update(i, { overrides })}
            />
          ) : null}
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => onChange(balance(variants.filter((_, j) => j !== i)))}
          >
            Remove variant
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="btn btn-small"
        onClick={() =>
          onChange(
            balance([
              ...variants,
              { name: '', weight: 0, weightType: 'variable', stickiness: stickinessOptions[0] ?? 'default' },
            ]),
          )
        }
      >
        Add variant
      </button>
    </div>
  );
}
