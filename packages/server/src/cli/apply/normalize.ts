import type { FileConstraint, FileStrategy, FileVariant } from './schema.js';
import type { ServerConstraint, ServerStrategy, ServerVariant } from './state.js';

// One comparable form for what the file says and what the server answers, so that an applied file
// compares equal to the server's state (server defaults filled in, ids mapped to names, key order fixed).

/** JSON with object keys sorted: equal values give equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

export function normConstraint(c: FileConstraint | ServerConstraint) {
  return {
    contextName: c.contextName,
    operator: c.operator,
    values: c.values ?? [],
    value: c.value || null,
    caseInsensitive: c.caseInsensitive ?? false,
    inverted: c.inverted ?? false,
  };
}

/** Variable weights are the server's to spread: only a fixed weight is compared. */
export function normVariant(v: FileVariant | ServerVariant) {
  const weightType = v.weightType ?? 'variable';
  return {
    name: v.name,
    weightType,
    weight: weightType === 'fix' ? (v.weight ?? 0) : null,
    stickiness: v.stickiness ?? 'default',
    payload: v.payload ?? null,
    overrides: v.overrides ?? [],
  };
}

/** Parameters as the wire has them (strings), with the groupId the server fills in for flexibleRollout. */
export function fileParameters(s: FileStrategy, featureName: string): Record<string, string> {
  const params = Object.fromEntries(Object.entries(s.parameters).map(([k, v]) => [k, String(v)]));
  if (s.name === 'flexibleRollout' && params.groupId === undefined) params.groupId = featureName;
  return params;
}

export function normFileStrategy(s: FileStrategy, featureName: string) {
  return {
    name: s.name,
    title: s.title || null,
    disabled: s.disabled,
    parameters: fileParameters(s, featureName),
    constraints: s.constraints.map(normConstraint),
    segments: [...s.segments].sort(),
    variants: s.variants.map(normVariant),
  };
}

export function normServerStrategy(s: ServerStrategy, segmentName: (id: number) => string) {
  return {
    name: s.name,
    title: s.title || null,
    disabled: s.disabled ?? false,
    parameters: s.parameters ?? {},
    constraints: (s.constraints ?? []).map(normConstraint),
    segments: (s.segments ?? []).map(segmentName).sort(),
    variants: (s.variants ?? []).map(normVariant),
  };
}

/** A variant as the API takes it (a variable weight is recomputed by the server). */
export function variantBody(v: FileVariant) {
  return {
    name: v.name,
    weight: v.weight ?? 0,
    weightType: v.weightType,
    stickiness: v.stickiness,
    ...(v.payload ? { payload: v.payload } : {}),
    ...(v.overrides ? { overrides: v.overrides } : {}),
  };
}

export function constraintBody(c: FileConstraint) {
  return {
    contextName: c.contextName,
    operator: c.operator,
    caseInsensitive: c.caseInsensitive,
    inverted: c.inverted,
    ...(c.values !== undefined ? { values: c.values } : {}),
    ...(c.value !== undefined ? { value: c.value } : {}),
  };
}
