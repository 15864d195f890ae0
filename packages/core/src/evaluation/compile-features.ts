// Compiles a client-API feature payload once per configuration revision into closures. The fast path
// (`isEnabled`, `getVariant`) then does one map lookup and runs prebuilt predicates; the playground
// walks the same compiled strategies to explain them.
import type { VariantResult } from '../domain/variant.js';
import type {
  ClientConstraint,
  ClientFeature,
  ClientFeatures,
  ClientSegment,
  ClientStrategy,
} from './client-features.js';
import {
  ALWAYS,
  allOf,
  type ConstraintCaches,
  type ContextPredicate,
  compileConstraint,
  createConstraintCaches,
  NEVER,
} from './compile-constraint.js';
import { compileDependencies } from './compile-dependencies.js';
import { offByDisabledStrategies } from './disabled-strategies.js';
import type { EvaluationContext } from './evaluation-context.js';
import { parseAddress4 } from './ip-address-match.js';
import { createParseCache } from './parse-cache.js';
import { resolveVariant } from './resolve-variant.js';
import { compileVariantSelector, VARIANT_NONE_DISABLED, type VariantSelector } from './select-variant.js';
import { compileStrategyRule, type RuleEnvironment } from './strategy-rules.js';

/** Options of `compileFeatures`. */
export interface CompileOptions {
  /**
   * Host name `applicationHostname` strategies match (the SDK reads `HOSTNAME` or `os.hostname()`;
   * core does no I/O, so the caller passes it). Without it those strategies are off.
   */
  hostname?: string;
}

/** A constraint with its compiled test. */
export interface CompiledConstraint {
  readonly source: ClientConstraint;
  readonly test: ContextPredicate;
}

/** A segment with its compiled constraints. */
export interface CompiledSegment {
  readonly id: number;
  readonly name: string;
  readonly constraints: readonly CompiledConstraint[];
  readonly test: ContextPredicate;
}

/** A strategy compiled for both the fast path and the playground. */
export interface CompiledStrategy {
  readonly source: ClientStrategy;
  readonly id: string;
  /** Normalised parameters (all strings). */
  readonly parameters: Readonly<Record<string, string>>;
  /** False for a disabled strategy: skipped by the fast path, reported as unevaluated. */
  readonly active: boolean;
  /** Built-in and not host-dependent, i.e. the playground can give a definite answer. */
  readonly complete: boolean;
  readonly constraints: readonly CompiledConstraint[];
  /** One entry per referenced id; `segment` is undefined when the id is unknown (always false). */
  readonly segments: readonly { readonly id: number; readonly segment: CompiledSegment | undefined }[];
  /** The strategy's own rule; undefined for a strategy this evaluator does not know. */
  readonly rule: ContextPredicate | undefined;
  /** Constraints, segments and rule together: the fast-path answer. */
  readonly isOn: ContextPredicate;
  readonly selectVariant: VariantSelector | null;
}

/** A feature compiled for both the fast path and the playground. */
export interface CompiledFeature {
  readonly source: ClientFeature;
  readonly name: string;
  readonly project: string;
  /** Whether the feature is on in the payload's environment. */
  readonly enabled: boolean;
  /** All strategies in evaluation (sortOrder) order, disabled ones included. */
  readonly strategies: readonly CompiledStrategy[];
  /** False when the payload's strategies are not even a list: the feature is then always off. */
  readonly wellFormed: boolean;
  readonly selectVariant: VariantSelector | null;
  /** Whether every parent dependency is satisfied for the context. */
  readonly dependenciesSatisfied: ContextPredicate;
  /**
   * The fast path: the strategy that turns the feature on (a synthetic always-on one when it has no
   * active strategy), or `null` when it is off.
   */
  readonly match: (context: EvaluationContext) => CompiledStrategy | null;
}

/** An immutable, compiled configuration. */
export interface CompiledFeatureSet {
  /** Compiled features in payload order; a repeated name keeps its first position, last definition. */
  readonly features: readonly CompiledFeature[];
  /** The compiled feature of that name, for explanation or inspection. */
  get(name: string): CompiledFeature | undefined;
  /** Whether the feature is on for the context; `fallback` when the set has no such feature. */
  isEnabled(name: string, context: EvaluationContext, fallback?: boolean): boolean;
  /** The variant for the context; the returned object is frozen and shared, never mutate it. */
  getVariant(name: string, context: EvaluationContext): Readonly<VariantResult>;
}

// Features are built first and linked to their parents afterwards.
type FeatureDraft = { -readonly [K in keyof CompiledFeature]: CompiledFeature[K] };

const ON_WITHOUT_STRATEGY: CompiledStrategy = Object.freeze({
  source: Object.freeze({ name: 'default', parameters: {}, constraints: [] }),
  id: '',
  parameters: Object.freeze({}),
  active: true,
  complete: true,
  constraints: [],
  segments: [],
  rule: ALWAYS,
  isOn: ALWAYS,
  selectVariant: null,
});

const UNREADABLE_STRATEGY: ClientStrategy = Object.freeze({ name: '', parameters: {}, constraints: [] });

function normaliseParameters(parameters: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (parameters && typeof parameters === 'object') {
    for (const [key, value] of Object.entries(parameters)) {
      if (value !== undefined && value !== null) result[key] = String(value);
    }
  }
  return Object.freeze(result);
}

// What a non-object constraint entry is reported as; it compiles to a constant false.
const UNREADABLE_CONSTRAINT: ClientConstraint = Object.freeze({ contextName: '', operator: '' });

function compileConstraints(constraints: unknown, caches: ConstraintCaches): CompiledConstraint[] {
  if (!Array.isArray(constraints)) return [];
  return constraints.map((entry: unknown) => {
    const source = entry && typeof entry === 'object' ? (entry as ClientConstraint) : UNREADABLE_CONSTRAINT;
    return { source, test: compileConstraint(source, caches) };
  });
}

function compileSegment(segment: ClientSegment, caches: ConstraintCaches): CompiledSegment {
  const constraints = compileConstraints(segment.constraints, caches);
  return {
    id: segment.id,
    name: typeof segment.name === 'string' ? segment.name : '',
    constraints,
    test: allOf(constraints.map((constraint) => constraint.test)),
  };
}

function compileStrategy(
  source: ClientStrategy,
  segments: ReadonlyMap<number, CompiledSegment>,
  caches: ConstraintCaches,
  env: RuleEnvironment,
): CompiledStrategy {
  const parameters = normaliseParameters(source.parameters);
  const constraints = compileConstraints(source.constraints, caches);
  const segmentRefs = (Array.isArray(source.segments) ? source.segments : []).map((id) => ({
    id,
    segment: segments.get(id),
  }));
  const rule = compileStrategyRule(source.name, parameters, env);
  const gates = [
    ...constraints.map((constraint) => constraint.test),
    ...segmentRefs.map((ref) => ref.segment?.test ?? NEVER),
  ];
  const variants = Array.isArray(source.variants) ? source.variants : [];
  return {
    source,
    id: typeof source.id === 'string' ? source.id : '',
    parameters,
    active: source.disabled !== true,
    complete: rule !== undefined && source.name !== 'applicationHostname',
    constraints,
    segments: segmentRefs,
    rule,
    // The rule runs last, after the cheap gates, and never for an unknown strategy. The playground
    // needs the bare rule; the fast path gets it compiled again with the gates fused in.
    isOn: rule ? compileStrategyRule(source.name, parameters, env, allOf(gates))! : NEVER,
    // The SDK interpolates a missing groupId as the string "undefined"; so do we, to share buckets.
    selectVariant: compileVariantSelector(
      variants,
      String(parameters['groupId']),
      variants[0]?.stickiness || parameters['stickiness'] || 'default',
    ),
  };
}

// Strategies run in sortOrder; the sort is stable, so equal or missing sortOrders keep payload order.
function byOrder(a: ClientStrategy, b: ClientStrategy): number {
  return (
    (typeof a.sortOrder === 'number' ? a.sortOrder : 0) - (typeof b.sortOrder === 'number' ? b.sortOrder : 0)
  );
}

function createMatcher(feature: FeatureDraft): CompiledFeature['match'] {
  if (!feature.enabled || !feature.wellFormed) return () => null;
  const dependencies = feature.dependenciesSatisfied;
  if (offByDisabledStrategies(feature.strategies, (strategy) => !strategy.active)) return () => null;
  const active = feature.strategies.filter((strategy) => strategy.active);
  if (active.length === 0) {
    if (dependencies === ALWAYS) return () => ON_WITHOUT_STRATEGY;
    return (context) => (dependencies(context) ? ON_WITHOUT_STRATEGY : null);
  }
  // The tests sit in their own array so a miss never touches the strategy objects.
  const tests = active.map((strategy) => strategy.isOn);
  if (active.length === 1 && dependencies === ALWAYS) {
    const [test, only] = [tests[0]!, active[0]!];
    return (context) => (test(context) ? only : null);
  }
  return (context) => {
    if (dependencies !== ALWAYS && !dependencies(context)) return null;
    for (let i = 0; i < tests.length; i++) if (tests[i]!(context)) return active[i]!;
    return null;
  };
}

function compileFeature(
  source: ClientFeature,
  segments: ReadonlyMap<number, CompiledSegment>,
  caches: ConstraintCaches,
  env: RuleEnvironment,
): FeatureDraft {
  const wellFormed = Array.isArray(source.strategies);
  const strategies = wellFormed
    ? source.strategies
        // A garbage entry stays a strategy (an unknown, never-on one) so it cannot leave the feature
        // with no strategies, which would turn it on for everyone.
        .map((strategy) => (strategy && typeof strategy === 'object' ? strategy : UNREADABLE_STRATEGY))
        .sort(byOrder)
        .map((strategy) => compileStrategy(strategy, segments, caches, env))
    : [];
  const variants = Array.isArray(source.variants) ? source.variants : [];
  return {
    source,
    name: source.name,
    project: typeof source.project === 'string' && source.project !== '' ? source.project : 'default',
    enabled: !!source.enabled,
    strategies,
    wellFormed,
    selectVariant: compileVariantSelector(variants, source.name, variants[0]?.stickiness ?? 'default'),
    dependenciesSatisfied: ALWAYS,
    match: () => null,
  };
}

/** Compiles a client-API payload; never throws on badly stored configuration. */
export function compileFeatures(input: ClientFeatures, options: CompileOptions = {}): CompiledFeatureSet {
  const caches = createConstraintCaches();
  const env: RuleEnvironment = {
    hostname: options.hostname?.toLowerCase(),
    addresses4: createParseCache(parseAddress4),
  };
  const segments = new Map<number, CompiledSegment>();
  for (const segment of Array.isArray(input?.segments) ? input.segments : []) {
    if (segment && typeof segment === 'object') segments.set(segment.id, compileSegment(segment, caches));
  }
  const byName = new Map<string, FeatureDraft>();
  for (const source of Array.isArray(input?.features) ? input.features : []) {
    if (source && typeof source === 'object' && typeof source.name === 'string') {
      byName.set(source.name, compileFeature(source, segments, caches, env));
    }
  }
  // Parents are linked once every feature exists, then each matcher is built. `isEnabled` looks the
  // matcher up directly: one object fewer to pull into cache per flag.
  const matchers = new Map<string, CompiledFeature['match']>();
  for (const feature of byName.values()) {
    feature.dependenciesSatisfied = compileDependencies(feature.source.dependencies, byName);
    feature.match = createMatcher(feature);
    matchers.set(feature.name, feature.match);
  }

  return {
    features: [...byName.values()],
    get: (name) => byName.get(name),
    isEnabled(name, context, fallback = false) {
      const match = matchers.get(name);
      return match ? match(context) !== null : fallback;
    },
    getVariant(name, context) {
      const feature = byName.get(name);
      return feature ? resolveVariant(feature, context) : VARIANT_NONE_DISABLED;
    },
  };
}
