// The playground answer serialized directly: the same compiled strategies and the same decisions as
// `explainFeatures`, but every part of the explanation that does not depend on the context (names,
// ids, parameters, edit links, constraint definitions, variant lists) is serialized once per compiled
// feature and environment, and a request only splices its results (booleans, statuses, the chosen
// variant) between those fragments. `explainFeaturesJson(...)` is exactly
// `JSON.stringify(explainFeatures(...))`, character for character.
import type { ContextPredicate } from './compile-constraint.js';
import type {
  CompiledConstraint,
  CompiledFeature,
  CompiledFeatureSet,
  CompiledSegment,
  CompiledStrategy,
} from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';
import { type ExplainOptions, editLink, playgroundVariant, toVariant } from './explain-features.js';
import type { CompiledVariant } from './select-variant.js';

/** `"a":1,"b":2` for an object's JSON (its members without braces); '' when it has none. */
function members(value: object): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Members joined with commas, empty ones left out. */
function joinMembers(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(',');
}

/** `{...,"result":` + result + tail. */
interface ConstraintTemplate {
  readonly test: ContextPredicate;
  readonly head: string;
  readonly tail: string;
}

/** A segment reference: constant when the id is unknown, else head + result + constraints. */
interface SegmentTemplate {
  readonly constant: string | null;
  readonly head: string;
  readonly constraints: readonly ConstraintTemplate[];
}

const UNEVALUATED = 0;
const INCOMPLETE = 1;
const COMPLETE = 2;

interface StrategyTemplate {
  readonly strategy: CompiledStrategy;
  readonly status: typeof UNEVALUATED | typeof INCOMPLETE | typeof COMPLETE;
  /** Up to and including `"result":`. */
  readonly head: string;
  /** From after the result object to the opening bracket of `segments`. */
  readonly afterResult: string;
  readonly segments: readonly SegmentTemplate[];
  readonly constraints: readonly ConstraintTemplate[];
  /** From after the constraints list to the end of the strategy object. */
  readonly tail: string;
}

interface FeatureTemplate {
  readonly environment: string;
  /** Up to and including `"strategies":{"result":`. */
  readonly head: string;
  readonly strategies: readonly StrategyTemplate[];
  /** `,"isEnabledInCurrentEnvironment":…,"isEnabled":`. */
  readonly inEnvironment: string;
  /** `,"variants":[…]}`. */
  readonly tail: string;
}

const constraintTemplates = new WeakMap<CompiledConstraint, ConstraintTemplate>();
const segmentTemplates = new WeakMap<CompiledSegment, readonly ConstraintTemplate[]>();
const featureTemplates = new WeakMap<CompiledFeature, FeatureTemplate>();
const variantJson = new WeakMap<CompiledVariant, string>();

// Mirrors `explainConstraint`: the same members, in the same order, around the result.
function constraintTemplate(constraint: CompiledConstraint): ConstraintTemplate {
  let template = constraintTemplates.get(constraint);
  if (template) return template;
  const { source } = constraint;
  const before = members({
    contextName: source.contextName,
    operator: source.operator,
    caseInsensitive: source.caseInsensitive === true,
    inverted: source.inverted === true,
  });
  const after: { values?: unknown[]; value?: unknown } = {};
  if (Array.isArray(source.values)) after.values = [...source.values];
  if (source.value !== undefined) after.value = source.value;
  const rest = members(after);
  template = {
    test: constraint.test,
    head: `{${joinMembers(before, '"result":')}`,
    tail: `${rest === '' ? '' : `,${rest}`}}`,
  };
  constraintTemplates.set(constraint, template);
  return template;
}

function segmentConstraints(segment: CompiledSegment): readonly ConstraintTemplate[] {
  let templates = segmentTemplates.get(segment);
  if (!templates) {
    templates = segment.constraints.map(constraintTemplate);
    segmentTemplates.set(segment, templates);
  }
  return templates;
}

function segmentTemplate(ref: CompiledStrategy['segments'][number]): SegmentTemplate {
  const { id, segment } = ref;
  if (!segment) {
    return {
      constant: JSON.stringify({ id, name: '', result: false, constraints: [] }),
      head: '',
      constraints: [],
    };
  }
  return {
    constant: null,
    head: `{${joinMembers(members({ id, name: segment.name }), '"result":')}`,
    constraints: segmentConstraints(segment),
  };
}

// Mirrors `explainStrategy`: name, id, result, disabled, segments, constraints, parameters, links, title.
function strategyTemplate(
  feature: CompiledFeature,
  strategy: CompiledStrategy,
  environment: string,
): StrategyTemplate {
  const tail: { parameters: Record<string, string>; links: { edit: string }; title?: string } = {
    parameters: { ...strategy.parameters },
    links: { edit: editLink(feature, strategy, environment) },
  };
  if (typeof strategy.source.title === 'string') tail.title = strategy.source.title;
  return {
    strategy,
    status: !strategy.active ? UNEVALUATED : strategy.complete ? COMPLETE : INCOMPLETE,
    head: `{${joinMembers(members({ name: strategy.source.name, id: strategy.id }), '"result":')}`,
    afterResult: `,"disabled":${!strategy.active},"segments":[`,
    segments: strategy.segments.map(segmentTemplate),
    constraints: strategy.constraints.map(constraintTemplate),
    tail: `],${members(tail)}}`,
  };
}

// Mirrors `explainFeature`: name, projectId, strategies, hasUnsatisfiedDependency,
// isEnabledInCurrentEnvironment, isEnabled, variant, variants.
function featureTemplate(feature: CompiledFeature, environment: string): FeatureTemplate {
  const cached = featureTemplates.get(feature);
  if (cached && cached.environment === environment) return cached;
  const variants = Array.isArray(feature.source.variants)
    ? feature.source.variants.filter((v) => v && typeof v === 'object').map(toVariant)
    : [];
  const template: FeatureTemplate = {
    environment,
    head: `{${joinMembers(members({ name: feature.name, projectId: feature.project }), '"strategies":{"result":')}`,
    strategies: feature.strategies.map((strategy) => strategyTemplate(feature, strategy, environment)),
    inEnvironment: `,"isEnabledInCurrentEnvironment":${feature.enabled},"isEnabled":`,
    tail: `,"variants":${JSON.stringify(variants)}}`,
  };
  featureTemplates.set(feature, template);
  return template;
}

function variantToJson(variant: CompiledVariant): string {
  let json = variantJson.get(variant);
  if (json === undefined) {
    json = JSON.stringify(playgroundVariant(variant));
    variantJson.set(variant, json);
  }
  return json;
}

const DISABLED_VARIANT = JSON.stringify({ name: 'disabled', enabled: false });

/** What one strategy's explanation decided, for the feature's verdict. */
interface StrategyOutcome {
  /** Complete and on. */
  on: boolean;
  /** Reported `enabled: "unknown"`. */
  unknown: boolean;
  /** The strategy variant's JSON when complete, on and a variant was chosen. */
  variant: string | null;
}

// The answer is collected as a list of fragments joined once at the end: concatenating them one by
// one would build a deep rope that costs more to flatten (when it is encoded) than the whole
// evaluation. A result that precedes what decides it (a strategy's result, its segments' results, a
// feature's verdict) gets a reserved slot, filled once known.

// Constraint results are all computed (each is reported); `pass` collects whether every one held.
let pass = true;

function pushConstraints(
  out: string[],
  templates: readonly ConstraintTemplate[],
  context: EvaluationContext,
): void {
  for (let i = 0; i < templates.length; i++) {
    const template = templates[i]!;
    const result = template.test(context);
    if (!result) pass = false;
    if (i > 0) out.push(',');
    out.push(template.head, result ? 'true' : 'false', template.tail);
  }
}

function pushStrategy(
  out: string[],
  template: StrategyTemplate,
  context: EvaluationContext,
  outcome: StrategyOutcome,
): void {
  out.push(template.head);
  const resultSlot = out.length;
  out.push('', template.afterResult);
  // Same order as `explainStrategy`: constraints, then segments, then the rule and the variant.
  // The constraints are written after the segments, so they are evaluated into a side list.
  const constraints: string[] = [];
  pass = true;
  pushConstraints(constraints, template.constraints, context);
  const constraintsPass = pass;
  let segmentsPass = true;
  for (let i = 0; i < template.segments.length; i++) {
    const segment = template.segments[i]!;
    if (i > 0) out.push(',');
    if (segment.constant !== null) {
      out.push(segment.constant);
      segmentsPass = false;
      continue;
    }
    out.push(segment.head);
    const segmentSlot = out.length;
    out.push('', ',"constraints":[');
    pass = true;
    pushConstraints(out, segment.constraints, context);
    if (!pass) segmentsPass = false;
    out[segmentSlot] = pass ? 'true' : 'false';
    out.push(']}');
  }
  out.push('],"constraints":[');
  for (let i = 0; i < constraints.length; i++) out.push(constraints[i]!);
  out.push(template.tail);
  const passesGates = constraintsPass && segmentsPass;

  outcome.on = false;
  outcome.unknown = false;
  outcome.variant = null;
  if (template.status === UNEVALUATED) {
    outcome.unknown = true;
    out[resultSlot] = '{"evaluationStatus":"unevaluated","enabled":"unknown"}';
  } else if (template.status === INCOMPLETE) {
    outcome.unknown = passesGates;
    out[resultSlot] = passesGates
      ? '{"evaluationStatus":"incomplete","enabled":"unknown"}'
      : '{"evaluationStatus":"incomplete","enabled":false}';
  } else {
    const { strategy } = template;
    const enabled = passesGates && strategy.rule!(context);
    const variant = enabled ? strategy.selectVariant?.(context) : null;
    outcome.on = enabled;
    if (variant) {
      outcome.variant = variantToJson(variant);
      out[resultSlot] = `{"evaluationStatus":"complete","enabled":true,"variant":${outcome.variant}}`;
    } else {
      out[resultSlot] = enabled
        ? '{"evaluationStatus":"complete","enabled":true}'
        : '{"evaluationStatus":"complete","enabled":false}';
    }
  }
}

function pushFeature(
  out: string[],
  feature: CompiledFeature,
  context: EvaluationContext,
  environment: string,
): void {
  const template = featureTemplate(feature, environment);
  out.push(template.head);
  const resultSlot = out.length;
  out.push('', ',"data":[');
  const outcome: StrategyOutcome = { on: false, unknown: false, variant: null };
  let anyOn = false;
  let anyUnknown = false;
  let allDisabled = true;
  // The deciding strategy is the first complete one that is on: the one the fast path would pick.
  let decided = false;
  let decidedVariant: string | null = null;
  for (let i = 0; i < template.strategies.length; i++) {
    const strategy = template.strategies[i]!;
    if (i > 0) out.push(',');
    pushStrategy(out, strategy, context, outcome);
    if (strategy.status !== UNEVALUATED) allDisabled = false;
    if (outcome.unknown) anyUnknown = true;
    if (outcome.on) {
      anyOn = true;
      if (!decided) {
        decided = true;
        decidedVariant = outcome.variant;
      }
    }
  }

  // Same verdict as `overallResult`.
  let result: boolean | 'unknown';
  if (!feature.wellFormed) result = false;
  else if (template.strategies.length === 0) result = feature.enabled;
  else if (allDisabled) result = false;
  else if (anyOn) result = true;
  else if (anyUnknown) result = 'unknown';
  else result = false;
  out[resultSlot] = result === 'unknown' ? '"unknown"' : result ? 'true' : 'false';

  const hasUnsatisfiedDependency = !feature.dependenciesSatisfied(context);
  const isEnabled = result === true && feature.enabled && !hasUnsatisfiedDependency;
  let variant = DISABLED_VARIANT;
  if (isEnabled) {
    if (decidedVariant !== null) variant = decidedVariant;
    else {
      const fromFeature = feature.selectVariant?.(context);
      if (fromFeature) variant = variantToJson(fromFeature);
    }
  }
  out.push(
    hasUnsatisfiedDependency ? ']},"hasUnsatisfiedDependency":true' : ']},"hasUnsatisfiedDependency":false',
    template.inEnvironment,
    isEnabled ? 'true' : 'false',
    ',"variant":',
    variant,
    template.tail,
  );
}

/** `JSON.stringify(explainFeature(feature, context, environment))`, from prebuilt fragments. */
export function explainFeatureJson(
  feature: CompiledFeature,
  context: EvaluationContext,
  environment: string,
): string {
  const out: string[] = [];
  pushFeature(out, feature, context, environment);
  return out.join('');
}

/**
 * `JSON.stringify(explainFeatures(compiled, context, options))`, without building the explanation
 * objects: the constant fragments of each feature are serialized once per compiled feature.
 */
export function explainFeaturesJson(
  compiled: CompiledFeatureSet,
  context: EvaluationContext,
  options: ExplainOptions,
): string {
  const projects =
    options.projects === undefined || options.projects === '*' ? null : new Set(options.projects);
  const out: string[] = ['['];
  for (const feature of compiled.features) {
    if (projects === null || projects.has(feature.project)) {
      if (out.length > 1) out.push(',');
      pushFeature(out, feature, context, options.environment);
    }
  }
  out.push(']');
  return out.join('');
}
