// One closure per constraint, built once per configuration: operands are parsed here so evaluation
// only reads the context. Semantics are unleash-client 6.x's; anything unparsable compiles to a
// constant `false` (which `inverted` still flips, as in the SDK), never to a throw.
import { RE2JS } from 're2js';
import { parse as parseVersion, SemVer } from 'semver';
import type { ClientConstraint } from './client-features.js';
import { currentTimeOf, type EvaluationContext, resolveContextValue } from './evaluation-context.js';
import {
  isInSubnet,
  isSameAddress,
  type ParsedAddress,
  parseAddress,
  parseAddress4,
  parseAddress6,
} from './ip-address-match.js';
import { createParseCache, type ParseCache } from './parse-cache.js';

/** A compiled test of a context. */
export type ContextPredicate = (context: EvaluationContext) => boolean;

/** Per-compiled-set memo of parsed context values, shared by every constraint of the set. */
export interface ConstraintCaches {
  versions: ParseCache<SemVer | null>;
  addresses: ParseCache<ParsedAddress | null>;
  times: ParseCache<number>;
  /** Lower-cased context values for case-insensitive string operators (no garbage per evaluation). */
  lowered: ParseCache<string>;
  /** Memoised testers by flags and pattern, so equal REGEX constraints share one memo. */
  regexes: Map<string, (value: string) => boolean>;
  /** Compiled tests by constraint content: equal constraints across flags share one closure. */
  compiled: Map<string, ContextPredicate>;
}

/** Fresh caches for one compiled set. */
export function createConstraintCaches(): ConstraintCaches {
  return {
    versions: createParseCache(parseContextVersion),
    addresses: createParseCache(parseAddress),
    times: createParseCache(Date.parse),
    lowered: createParseCache((value) => value.toLocaleLowerCase()),
    regexes: new Map(),
    compiled: new Map(),
  };
}

export const ALWAYS: ContextPredicate = () => true;
export const NEVER: ContextPredicate = () => false;

/** A context version as the SDK accepts it: valid SemVer 2 without a leading `v`. */
export function parseContextVersion(raw: string): SemVer | null {
  return raw.startsWith('v') ? null : parseVersion(raw);
}

// The SDK drops empty entries and trims the rest; non-strings are coerced instead of throwing.
function cleanValues(values: unknown): string[] {
  if (!Array.isArray(values)) return [];
  return values.filter((value) => !!value).map((value) => String(value).trim());
}

type OperatorCompiler = (constraint: ClientConstraint, caches: ConstraintCaches) => ContextPredicate;

function membership(constraint: ClientConstraint, expectIn: boolean): ContextPredicate {
  const field = constraint.contextName;
  const list = cleanValues(constraint.values);
  // Short lists are scanned: a flat array is smaller to keep in cache than a hash set, and as fast.
  if (list.length <= 8) {
    return (context) => {
      const value = resolveContextValue(context, field);
      return (value !== undefined && list.includes(value)) === expectIn;
    };
  }
  const values = new Set(list);
  return (context) => {
    const value = resolveContextValue(context, field);
    return (value !== undefined && values.has(value)) === expectIn;
  };
}

const STRING_TESTS = {
  starts: (value: string, candidate: string) => value.startsWith(candidate),
  ends: (value: string, candidate: string) => value.endsWith(candidate),
  contains: (value: string, candidate: string) => value.includes(candidate),
};

function stringMatch(
  constraint: ClientConstraint,
  caches: ConstraintCaches,
  kind: keyof typeof STRING_TESTS,
): ContextPredicate {
  const field = constraint.contextName;
  const matches = STRING_TESTS[kind];
  const caseInsensitive = constraint.caseInsensitive === true;
  const raw = cleanValues(constraint.values);
  const values = caseInsensitive ? raw.map((value) => value.toLocaleLowerCase()) : raw;
  if (values.length === 0) return NEVER;
  return (context) => {
    let value = resolveContextValue(context, field);
    if (value === undefined) return false;
    if (caseInsensitive) value = caches.lowered.get(value);
    for (let i = 0; i < values.length; i++) if (matches(value, values[i]!)) return true;
    return false;
  };
}

function numberCompare(
  constraint: ClientConstraint,
  test: (actual: number, expected: number) => boolean,
): ContextPredicate {
  const field = constraint.contextName;
  const expected = Number(constraint.value);
  if (Number.isNaN(expected)) return NEVER;
  // NaN (missing or non-numeric context value) makes every comparison false, as the SDK requires.
  return (context) => test(Number(resolveContextValue(context, field)), expected);
}

function dateCompare(
  constraint: ClientConstraint,
  caches: ConstraintCaches,
  after: boolean,
): ContextPredicate {
  // The SDK compares `currentTime` whatever `contextName` says.
  const expected = new Date(constraint.value as string).getTime();
  if (Number.isNaN(expected)) return NEVER;
  const parseTime = caches.times.get;
  return after
    ? (context) => currentTimeOf(context, parseTime) > expected
    : (context) => currentTimeOf(context, parseTime) < expected;
}

function versionCompare(
  constraint: ClientConstraint,
  caches: ConstraintCaches,
  test: (order: number) => boolean,
): ContextPredicate {
  const field = constraint.contextName;
  let expected: SemVer;
  try {
    // Unlike context values, the constraint's own version may carry a leading `v` (SDK behaviour).
    expected = new SemVer(constraint.value as string);
  } catch {
    return NEVER;
  }
  return (context) => {
    const raw = resolveContextValue(context, field);
    if (!raw) return false;
    const actual = caches.versions.get(raw);
    return actual !== null && test(actual.compare(expected));
  };
}

// RE2 keeps hostile patterns linear, but re2js still costs a few hundred nanoseconds per search:
// results are memoised per distinct context value (bounded), shared by equal patterns.
function regexTester(
  pattern: string,
  caseInsensitive: boolean,
  caches: ConstraintCaches,
): ((value: string) => boolean) | null {
  const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  const shared = caches.regexes.get(key);
  if (shared) return shared;
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return null;
  }
  const tester = createParseCache((value) => regex.test(value), 256).get;
  caches.regexes.set(key, tester);
  return tester;
}

function regexMatch(constraint: ClientConstraint, caches: ConstraintCaches): ContextPredicate {
  const field = constraint.contextName;
  if (typeof constraint.value !== 'string') return NEVER;
  const test = regexTester(constraint.value, constraint.caseInsensitive === true, caches);
  if (!test) return NEVER;
  return (context) => {
    const value = resolveContextValue(context, field);
    return value !== undefined && test(value);
  };
}

function cidrMatch(constraint: ClientConstraint, caches: ConstraintCaches): ContextPredicate {
  const field = constraint.contextName;
  const values = cleanValues(constraint.values);
  // A range only counts for addresses of its own family, as in the SDK.
  const ranges4 = values.map(parseAddress4).filter((range) => range !== null);
  const ranges6 = values.map(parseAddress6).filter((range) => range !== null);
  if (ranges4.length === 0 && ranges6.length === 0) return NEVER;
  return (context) => {
    const value = resolveContextValue(context, field);
    if (value === undefined) return false;
    const address = caches.addresses.get(value);
    if (address === null) return false;
    const ranges = address.v4 ? ranges4 : ranges6;
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i]!;
      if (isSameAddress(address, range) || isInSubnet(address, range)) return true;
    }
    return false;
  };
}

const OPERATORS: Readonly<Record<string, OperatorCompiler>> = {
  IN: (c) => membership(c, true),
  NOT_IN: (c) => membership(c, false),
  STR_STARTS_WITH: (c, caches) => stringMatch(c, caches, 'starts'),
  STR_ENDS_WITH: (c, caches) => stringMatch(c, caches, 'ends'),
  STR_CONTAINS: (c, caches) => stringMatch(c, caches, 'contains'),
  NUM_EQ: (c) => numberCompare(c, (a, b) => a === b),
  NUM_GT: (c) => numberCompare(c, (a, b) => a > b),
  NUM_GTE: (c) => numberCompare(c, (a, b) => a >= b),
  NUM_LT: (c) => numberCompare(c, (a, b) => a < b),
  NUM_LTE: (c) => numberCompare(c, (a, b) => a <= b),
  DATE_AFTER: (c, caches) => dateCompare(c, caches, true),
  DATE_BEFORE: (c, caches) => dateCompare(c, caches, false),
  SEMVER_EQ: (c, caches) => versionCompare(c, caches, (order) => order === 0),
  SEMVER_GT: (c, caches) => versionCompare(c, caches, (order) => order > 0),
  SEMVER_GTE: (c, caches) => versionCompare(c, caches, (order) => order >= 0),
  SEMVER_LT: (c, caches) => versionCompare(c, caches, (order) => order < 0),
  SEMVER_LTE: (c, caches) => versionCompare(c, caches, (order) => order <= 0),
  REGEX: regexMatch,
  IN_CIDR: cidrMatch,
};

/** Compiles one constraint; a missing constraint or an unknown operator is always false, even inverted. */
export function compileConstraint(
  constraint: ClientConstraint | null | undefined,
  caches: ConstraintCaches,
): ContextPredicate {
  if (!constraint || typeof constraint !== 'object') return NEVER;
  const compile = Object.hasOwn(OPERATORS, constraint.operator) ? OPERATORS[constraint.operator] : undefined;
  if (!compile) return NEVER;
  // Configurations repeat constraints (copied strategies, the same audience everywhere); sharing
  // the closure keeps the compiled set small enough to stay in the CPU caches.
  const key = JSON.stringify(
    [
      constraint.contextName,
      constraint.operator,
      constraint.caseInsensitive === true,
      constraint.inverted === true,
      constraint.value,
      constraint.values,
    ],
    // `Number(null)` is 0 but `Number(undefined)` is NaN: the two must not share a key.
    (_, value) => (value === undefined ? { undefined: true } : value),
  );
  const shared = caches.compiled.get(key);
  if (shared) return shared;
  const test = compile(constraint, caches);
  const compiled = !constraint.inverted
    ? test
    : test === NEVER
      ? ALWAYS
      : (context: EvaluationContext) => !test(context);
  caches.compiled.set(key, compiled);
  return compiled;
}

/** AND of predicates, specialised for the short lists flags actually have. */
export function allOf(predicates: readonly ContextPredicate[]): ContextPredicate {
  const live = predicates.filter((predicate) => predicate !== ALWAYS);
  if (live.includes(NEVER)) return NEVER;
  const [a, b, c] = live;
  switch (live.length) {
    case 0:
      return ALWAYS;
    case 1:
      return a!;
    case 2:
      return (context) => a!(context) && b!(context);
    case 3:
      return (context) => a!(context) && b!(context) && c!(context);
    default:
      return (context) => {
        for (let i = 0; i < live.length; i++) if (!live[i]!(context)) return false;
        return true;
      };
  }
}
