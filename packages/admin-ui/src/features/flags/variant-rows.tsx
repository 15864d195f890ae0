import { z } from 'zod';
import type { ContextField, Payload } from '../../api/types';
import { normalizeVariantWeights, variantSchema } from '../../lib/domain';
import { type Problem, zodProblems } from '../../lib/form-errors';
import { type OverrideDraft, OverrideRows, overrideProblems } from './override-rows';

const PAYLOAD_TYPES = ['json', 'csv', 'string', 'number'] as const;

export interface VariantDraft {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
  overrides?: OverrideDraft[];
}

/** Variable variants share what fixed ones leave of 1000: core's rule, the one the server applies on save. */
export const balance = (variants: VariantDraft[]): VariantDraft[] => normalizeVariantWeights(variants);

/**
 * What the API would reject about a variant list, each with the path of the field at fault
 * (`[1].weight`, `[0].payload.value`, `[0].overrides[1]`): the core variant schema, then the rules
 * across variants. An override row's own words come before the schema's about the same row.
 */
export function variantProblems(variants: VariantDraft[]): Problem[] {
  const rows = variants.flatMap((v, i) =>
    overrideProblems(v.overrides ?? []).map((p) => ({ ...p, path: `[${i}].${p.path}` })),
  );
  const parsed = z.array(variantSchema).safeParse(variants);
  const problems = [...rows, ...(parsed.success ? [] : zodProblems(parsed.error))];
  const seen = new Set<string>();
  variants.forEach((v, i) => {
    if (v.name && seen.has(v.name))
      problems.push({ path: `[${i}].name`, message: `must be unique: another variant is named "${v.name}"` });
    seen.add(v.name);
  });
  const fixed = variants.filter((v) => v.weightType === 'fix').reduce((s, v) => s + v.weight, 0);
  if (fixed > 1000)
    problems.push({ path: 'variants', message: `Fixed weights add up to ${fixed}, more than 1000.` });
  return problems;
}

/** The paths of a list's fields that show errors (the list's own rules go under `variants`). */
export const variantFields = (variants: readonly VariantDraft[]): string[] => [
  'variants',
  ...variants.flatMap((v, i) => [
    `[${i}].name`,
    `[${i}].weight`,
    `[${i}].payload`,
    ...(v.overrides ?? []).map((_, j) => `[${i}].overrides[${j}]`),
  ]),
];

interface Props {
  variants: VariantDraft[];
  onChange(v: VariantDraft[]): void;
  stickinessOptions: string[];
  withOverrides?: boolean;
  /** For the overrides' context field picker. */
  contextFields?: readonly ContextField[];
  /** The error for a field by its path within the list (`[1].weight`), shown under that field. */
  errorOf?(path: string): string | undefined;
}

/** A field's error under it, announced to screen readers. */
const FieldMessage = ({ message }: { message: string | undefined }) =>
  message ? (
    <span className="field-error" role="alert">
      {message}
    </span>
  ) : null;

/** Editable variant rows: name, weight (fix or variable), stickiness, payload and overrides. */
export function VariantRows({
  variants,
  onChange,
  stickinessOptions,
  withOverrides,
  contextFields,
  errorOf = () => undefined,
}: Props) {
  const update = (i: number, patch: Partial<VariantDraft>) =>
    onChange(balance(variants.map((v, j) => (j === i ? { ...v, ...patch } : v))));
  return (
    <div className="stack">
      {variants.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
        <fieldset key={i} className="strategy" aria-label={`Variant ${i + 1}`}>
          <div className="form-grid">
            <label className={errorOf(`[${i}].name`) ? 'field field-invalid' : 'field'}>
              <span>Name</span>
              <input value={v.name} onChange={(e) => update(i, { name: e.target.value })} />
              <FieldMessage message={errorOf(`[${i}].name`)} />
            </label>
            <label className={errorOf(`[${i}].weight`) ? 'field field-invalid' : 'field'}>
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
              <FieldMessage message={errorOf(`[${i}].weight`)} />
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
            <label className={errorOf(`[${i}].payload`) ? 'field field-invalid' : 'field'}>
              <span>Payload value</span>
              <textarea
                value={v.payload.value}
                onChange={(e) =>
                  update(i, { payload: { type: v.payload?.type ?? 'string', value: e.target.value } })
                }
              />
              <FieldMessage message={errorOf(`[${i}].payload`)} />
            </label>
          ) : null}
          {withOverrides ? (
            <OverrideRows
              overrides={v.overrides ?? []}
              contextFields={contextFields ?? []}
              errorOf={(path) => errorOf(`[${i}].${path}`)}
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
