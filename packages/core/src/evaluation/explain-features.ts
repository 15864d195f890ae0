// The playground: the same compiled strategies as the fast path, evaluated without short-circuits so
// every constraint and segment can report its own result.
import type { ConstraintOperator, ConstraintWithResult } from '../domain/constraint.js';
import { asciiLower } from '../domain/feature-search.js';
import type {
  PlaygroundFeature,
  PlaygroundSegment,
  PlaygroundStrategy,
  StrategyEvaluationResult,
} from '../domain/playground.js';
import type { Variant, VariantResult } from '../domain/variant.js';
import type { ClientVariant } from './client-features.js';
import type {
  CompiledConstraint,
  CompiledFeature,
  CompiledFeatureSet,
  CompiledStrategy,
} from './compile-features.js';
import { offByDisabledStrategies } from './disabled-strategies.js';
import type { EvaluationContext } from './evaluation-context.js';
import type { CompiledVariant } from './select-variant.js';

/** Options of `explainFeatures`. */
export interface ExplainOptions {
  /** Environment the compiled payload belongs to (used in edit links). */
  environment: string;
  /** Projects to include; all when omitted or `*`. */
  projects?: readonly string[] | '*';
  /** Only features whose name contains this text, ASCII letters compared in either case. */
  query?: string | undefined;
}

/** The features of a compiled set the options select (projects, name), in the set's order. */
export function selectFeatures(compiled: CompiledFeatureSet, options: ExplainOptions): CompiledFeature[] {
  const projects =
    options.projects === undefined || options.projects === '*' ? null : new Set(options.projects);
  const query = options.query ? asciiLower(options.query) : '';
  return compiled.features.filter(
    (feature) =>
      (projects === null || projects.has(feature.project)) &&
      (query === '' || asciiLower(feature.name).includes(query)),
  );
}

function explainConstraint(constraint: CompiledConstraint, context: EvaluationContext): ConstraintWithResult {
  const { source } = constraint;
  const explained: ConstraintWithResult = {
    contextName: source.contextName,
    // Unknown operators are reported as stored; the domain type only names the known ones.
    operator: source.operator as ConstraintOperator,
    caseInsensitive: source.caseInsensitive === true,
    inverted: source.inverted === true,
    result: constraint.test(context),
  };
  if (Array.isArray(source.values)) explained.values = [...source.values];
  if (source.value !== undefined) explained.value = source.value;
  return explained;
}

function explainSegments(strategy: CompiledStrategy, context: EvaluationContext): PlaygroundSegment[] {
  return strategy.segments.map(({ id, segment }) => {
    if (!segment) return { id, name: '', result: false, constraints: [] };
    const constraints = segment.constraints.map((constraint) => explainConstraint(constraint, context));
    return { id, name: segment.name, result: constraints.every((c) => c.result), constraints };
  });
}

/** A chosen variant as the playground reports it. */
export function playgroundVariant(variant: CompiledVariant): VariantResult {
  const result: VariantResult = { name: variant.name, enabled: true };
  if (variant.payload) result.payload = { ...variant.payload };
  return result;
}

function evaluateStrategy(
  strategy: CompiledStrategy,
  passesGates: boolean,
  context: EvaluationContext,
): PlaygroundStrategy['result'] {
  if (!strategy.active) return { evaluationStatus: 'unevaluated', enabled: 'unknown' };
  // Custom strategies, and applicationHostname (it depends on the SDK's host), cannot be decided here.
  if (!strategy.complete) return { evaluationStatus: 'incomplete', enabled: passesGates ? 'unknown' : false };
  const enabled = passesGates && strategy.rule!(context);
  const result: StrategyEvaluationResult & { variant?: VariantResult | null } = {
    evaluationStatus: 'complete',
    enabled,
  };
  const variant = enabled ? strategy.selectVariant?.(context) : null;
  if (variant) result.variant = playgroundVariant(variant);
  return result;
}

/** The playground's edit link of a strategy. */
export function editLink(feature: CompiledFeature, strategy: CompiledStrategy, environment: string): string {
  return `/projects/${feature.project}/features/${feature.name}/strategies/edit?environmentId=${environment}&strategyId=${strategy.id}`;
}

function explainStrategy(
  feature: CompiledFeature,
  strategy: CompiledStrategy,
  context: EvaluationContext,
  environment: string,
): PlaygroundStrategy {
  const constraints = strategy.constraints.map((constraint) => explainConstraint(constraint, context));
  const segments = explainSegments(strategy, context);
  const passesGates = constraints.every((c) => c.result) && segments.every((s) => s.result);
  const explained: PlaygroundStrategy = {
    name: strategy.source.name,
    id: strategy.id,
    result: evaluateStrategy(strategy, passesGates, context),
    disabled: !strategy.active,
    segments,
    constraints,
    parameters: { ...strategy.parameters },
    links: { edit: editLink(feature, strategy, environment) },
  };
  if (typeof strategy.source.title === 'string') explained.title = strategy.source.title;
  return explained;
}

function overallResult(feature: CompiledFeature, data: readonly PlaygroundStrategy[]): boolean | 'unknown' {
  if (!feature.wellFormed) return false;
  // No strategy at all: on with its environment. Every strategy disabled: off, the same answer the
  // fast path gives and the client API serves (it sends such a feature as disabled).
  if (data.length === 0) return feature.enabled;
  if (offByDisabledStrategies(data, (strategy) => strategy.disabled === true)) return false;
  if (data.some((s) => s.result.evaluationStatus === 'complete' && s.result.enabled === true)) return true;
  if (data.some((s) => s.result.enabled === 'unknown')) return 'unknown';
  return false;
}

/** A feature variant as the playground lists it. */
export function toVariant(variant: ClientVariant): Variant {
  const result: Variant = {
    name: variant.name,
    weight: variant.weight,
    weightType: variant.weightType ?? 'variable',
    stickiness: variant.stickiness ?? 'default',
  };
  if (variant.payload) result.payload = { ...variant.payload };
  if (Array.isArray(variant.overrides)) {
    result.overrides = variant.overrides
      .filter((o) => o && typeof o === 'object')
      .map((o) => ({ contextName: o.contextName, values: Array.isArray(o.values) ? [...o.values] : [] }));
  }
  return result;
}

/** Explains one compiled feature for a context, as the playground reports it. */
export function explainFeature(
  feature: CompiledFeature,
  context: EvaluationContext,
  environment: string,
): PlaygroundFeature {
  const data = feature.strategies.map((strategy) => explainStrategy(feature, strategy, context, environment));
  const result = overallResult(feature, data);
  const hasUnsatisfiedDependency = !feature.dependenciesSatisfied(context);
  const isEnabled = result === true && feature.enabled && !hasUnsatisfiedDependency;

  let variant: VariantResult = { name: 'disabled', enabled: false };
  if (isEnabled) {
    // The deciding strategy is the first complete one that is on: the one the fast path would pick.
    const decidedBy = data.find((s) => s.result.evaluationStatus === 'complete' && s.result.enabled === true);
    const fromFeature = decidedBy?.result.variant ? null : feature.selectVariant?.(context);
    if (decidedBy?.result.variant) variant = decidedBy.result.variant;
    else if (fromFeature) variant = playgroundVariant(fromFeature);
  }

  return {
    name: feature.name,
    projectId: feature.project,
    strategies: { result, data },
    hasUnsatisfiedDependency,
    isEnabledInCurrentEnvironment: feature.enabled,
    isEnabled,
    variant,
    variants: Array.isArray(feature.source.variants)
      ? feature.source.variants.filter((v) => v && typeof v === 'object').map(toVariant)
      : [],
  };
}

/** Explains every feature of a compiled set (optionally only some projects) for a context. */
export function explainFeatures(
  compiled: CompiledFeatureSet,
  context: EvaluationContext,
  options: ExplainOptions,
): PlaygroundFeature[] {
  return selectFeatures(compiled, options).map((feature) =>
    explainFeature(feature, context, options.environment),
  );
}
