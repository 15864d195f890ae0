import type { ConstraintInput, ConstraintOperator } from '@flagstaff/core';
import { useId } from 'react';
import type { ContextField } from '../api/types';
import { CONSTRAINT_OPERATORS, MULTI_VALUE_OPERATORS } from '../lib/domain';
import { ValuesInput } from './values-input';

/** Operators that compare one `value` (numbers, dates, versions, a regular expression). */
const SINGLE_VALUE = (op: ConstraintOperator) => !MULTI_VALUE_OPERATORS.has(op);
/** The operators whose evaluation honours `caseInsensitive`: text matching and regular expressions. */
export const honoursCaseInsensitive = (op: ConstraintOperator) => op.startsWith('STR_') || op === 'REGEX';
export const OPERATOR_LABELS: Record<ConstraintOperator, string> = {
  IN: 'is one of',
  NOT_IN: 'is not one of',
  STR_CONTAINS: 'contains',
  STR_STARTS_WITH: 'starts with',
  STR_ENDS_WITH: 'ends with',
  NUM_EQ: '= (number)',
  NUM_GT: '> (number)',
  NUM_GTE: '≥ (number)',
  NUM_LT: '< (number)',
  NUM_LTE: '≤ (number)',
  DATE_AFTER: 'is after (date)',
  DATE_BEFORE: 'is before (date)',
  SEMVER_EQ: '= (semver)',
  SEMVER_GT: '> (semver)',
  SEMVER_LT: '< (semver)',
  SEMVER_GTE: '≥ (semver)',
  SEMVER_LTE: '≤ (semver)',
  REGEX: 'matches regular expression',
  IN_CIDR: 'is in IP range (CIDR)',
};

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** What the API would reject about a constraint's value, checked before sending. */
export function constraintProblem(c: ConstraintInput): string | null {
  if (!c.contextName) return 'Pick a context field.';
  if (SINGLE_VALUE(c.operator)) {
    const v = c.value ?? '';
    if (!v) return 'Enter a value.';
    if (c.operator.startsWith('NUM_') && Number.isNaN(Number(v))) return 'Must be a number.';
    if (c.operator.startsWith('DATE_') && Number.isNaN(Date.parse(v))) return 'Must be a date.';
    if (c.operator.startsWith('SEMVER_') && !SEMVER.test(v)) return 'Must be a semantic version like 1.2.3.';
    if (c.operator === 'REGEX') {
      try {
        new RegExp(v);
      } catch {
        return 'Must be a valid regular expression.';
      }
    }
    return null;
  }
  return (c.values ?? []).length ? null : 'Add at least one value.';
}

const toLocalInput = (iso: string | undefined) => (iso ? new Date(iso).toISOString().slice(0, 16) : '');

interface Props {
  constraint: ConstraintInput;
  contextFields: ContextField[];
  onChange(c: ConstraintInput): void;
  onRemove(): void;
  index: number;
}

/** One constraint: context field, operator, value(s), case-insensitivity and inversion. */
export function ConstraintEditor({ constraint: c, contextFields, onChange, onRemove, index }: Props) {
  const id = useId();
  const field = contextFields.find((f) => f.name === c.contextName);
  const legal = field?.legalValues ?? [];
  const single = SINGLE_VALUE(c.operator);
  const problem = constraintProblem(c);
  // A flag the new operator ignores is dropped rather than saved where it means nothing.
  const setOperator = (operator: ConstraintOperator) => {
    const caseInsensitive = honoursCaseInsensitive(operator) ? (c.caseInsensitive ?? false) : false;
    onChange(
      SINGLE_VALUE(operator)
        ? { ...c, operator, caseInsensitive, values: undefined, value: c.value ?? '' }
        : { ...c, operator, caseInsensitive, value: undefined, values: c.values ?? [] },
    );
  };
  const values = c.values ?? [];
  return (
    <fieldset className="constraint" aria-label={`Constraint ${index + 1}`}>
      <div>
        <label className="hint" htmlFor={`${id}-ctx`}>
          Context field
        </label>
        <select
          id={`${id}-ctx`}
          value={c.contextName}
          onChange={(e) => onChange({ ...c, contextName: e.target.value })}
        >
          <option value="">Choose…</option>
          {contextFields.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
        </select>
      </div>
      <div>
        <label className="hint" htmlFor={`${id}-op`}>
          Operator
        </label>
        <select
          id={`${id}-op`}
          value={c.operator}
          onChange={(e) => setOperator(CONSTRAINT_OPERATORS.find((o) => o === e.target.value) ?? 'IN')}
        >
          {CONSTRAINT_OPERATORS.map((o) => (
            <option key={o} value={o}>
              {OPERATOR_LABELS[o]} ({o})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label className="hint" htmlFor={`${id}-val`}>
          {single ? 'Value' : 'Values (comma separated)'}
        </label>
        {single && c.operator.startsWith('DATE_') ? (
          <input
            id={`${id}-val`}
            type="datetime-local"
            value={toLocalInput(c.value)}
            onChange={(e) =>
              onChange({ ...c, value: e.target.value ? new Date(e.target.value).toISOString() : '' })
            }
          />
        ) : single ? (
          <input
            id={`${id}-val`}
            inputMode={c.operator.startsWith('NUM_') ? 'decimal' : 'text'}
            placeholder={
              c.operator.startsWith('SEMVER_') ? '1.2.3' : c.operator === 'REGEX' ? '^beta-.*' : ''
            }
            value={c.value ?? ''}
            onChange={(e) => onChange({ ...c, value: e.target.value })}
          />
        ) : (
          <ValuesInput
            id={`${id}-val`}
            values={values}
            onValuesChange={(next) => onChange({ ...c, values: next })}
          />
        )}
        {!single && legal.length ? (
          <fieldset className="chips" style={{ marginTop: 6 }} aria-label="Legal values">
            {legal.map((l) => (
              <button
                key={l.value}
                type="button"
                className="chip-toggle"
                aria-pressed={values.includes(l.value)}
                title={l.description}
                onClick={() =>
                  onChange({
                    ...c,
                    values: values.includes(l.value)
                      ? values.filter((v) => v !== l.value)
                      : [...values, l.value],
                  })
                }
              >
                {l.value}
              </button>
            ))}
          </fieldset>
        ) : null}
        {single && legal.length && !c.operator.startsWith('DATE_') ? (
          <select
            aria-label="Pick a legal value"
            style={{ marginTop: 6 }}
            value=""
            onChange={(e) => onChange({ ...c, value: e.target.value })}
          >
            <option value="">Pick a legal value…</option>
            {legal.map((l) => (
              <option key={l.value}>{l.value}</option>
            ))}
          </select>
        ) : null}
        {problem ? <div className="field-error">{problem}</div> : null}
      </div>
      <button
        type="button"
        className="btn btn-small btn-ghost"
        onClick={onRemove}
        aria-label={`Remove constraint ${index + 1}`}
      >
        Remove
      </button>
      <div className="constraint-flags">
        {honoursCaseInsensitive(c.operator) ? (
          <label className="check">
            <input
              type="checkbox"
              checked={c.caseInsensitive ?? false}
              onChange={(e) => onChange({ ...c, caseInsensitive: e.target.checked })}
            />
            Case insensitive
          </label>
        ) : null}
        <label className="check">
          <input
            type="checkbox"
            checked={c.inverted ?? false}
            onChange={(e) => onChange({ ...c, inverted: e.target.checked })}
          />
          Inverted (NOT)
        </label>
      </div>
    </fieldset>
  );
}
