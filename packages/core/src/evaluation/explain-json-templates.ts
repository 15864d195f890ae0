// Constant parts of the playground answer, serialized and UTF-8 encoded once per compiled feature and
// environment (see explain-features-json.ts for how a request splices them together).
import type {
  CompiledConstraint,
  CompiledFeature,
  CompiledSegment,
  CompiledStrategy,
} from './compile-features.js';
import { editLink, playgroundVariant, toVariant } from './explain-features.js';
import type { CompiledVariant } from './select-variant.js';

export type Bytes = Uint8Array;

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

// Fragments are encoded into shared arenas: a request then copies from a few contiguous blocks
// rather than from thousands of separately allocated buffers.
export const ARENA_SIZE = 1 << 18;
let arena = new Uint8Array(ARENA_SIZE);
let arenaUsed = 0;

export function utf8(text: string): Bytes {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (text.length * 3 > ARENA_SIZE >> 4) return encoder.encode(text);
  if (arenaUsed + text.length * 3 > ARENA_SIZE) {
    arena = new Uint8Array(ARENA_SIZE);
    arenaUsed = 0;
  }
  const { written } = encoder.encodeInto(text, arena.subarray(arenaUsed));
  const bytes = arena.subarray(arenaUsed, arenaUsed + written);
  arenaUsed += written;
  return bytes;
}

/** `"a":1,"b":2` for an object's JSON (its members without braces); '' when it has none. */
export function members(value: object): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Members joined with commas, empty ones left out. */
export function joinMembers(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(',');
}

/** A constraint's JSON with `result` true and false. */
export interface ConstraintTemplate {
  readonly test: CompiledConstraint['test'];
  readonly yes: Bytes;
  readonly no: Bytes;
}

/** A segment reference: `missing` when the id is unknown, else an opening per result. */
export interface SegmentTemplate {
  readonly missing: Bytes | null;
  /** `{"id":…,"name":…,"result":true,"constraints":[` */
  readonly yes: Bytes;
  readonly no: Bytes;
  readonly constraints: readonly ConstraintTemplate[];
}

// What a strategy reports (`result`); the order indexes `RESULTS`.
export const UNEVALUATED = 0;
export const INCOMPLETE_UNKNOWN = 1;
export const INCOMPLETE_OFF = 2;
export const COMPLETE_ON = 3;
export const COMPLETE_OFF = 4;
export const RESULTS: readonly Bytes[] = [
  '{"evaluationStatus":"unevaluated","enabled":"unknown"}',
  '{"evaluationStatus":"incomplete","enabled":"unknown"}',
  '{"evaluationStatus":"incomplete","enabled":false}',
  '{"evaluationStatus":"complete","enabled":true}',
  '{"evaluationStatus":"complete","enabled":false}',
].map((result) => encoder.encode(result));
/** A complete result that is on with a variant: this, the variant, then `}`. */
export const VARIANT_RESULT = encoder.encode('{"evaluationStatus":"complete","enabled":true,"variant":');
export const LONGEST_RESULT = Math.max(...RESULTS.map((result) => result.length), VARIANT_RESULT.length + 1);

export interface StrategyTemplate {
  readonly strategy: CompiledStrategy;
  readonly active: boolean;
  readonly complete: boolean;
  /** `{"name":…,"id":…,"result":` */
  readonly head: Bytes;
  /**
   * After the result: `,"disabled":…,"segments":[`, continued by as much of the rest as is constant
   * (all of it without segments or constraints).
   */
  readonly afterResult: Bytes;
  readonly segments: readonly SegmentTemplate[];
  /** `],"constraints":[` when there are segments (else it is in the opening). */
  readonly segmentsEnd: Bytes | null;
  readonly constraints: readonly ConstraintTemplate[];
  /** `],"parameters":…}` when there are segments or constraints (else it is in the opening). */
  readonly end: Bytes | null;
  /** Constraint and segment results the evaluation records. */
  readonly resultCount: number;
}

export interface FeatureTemplate {
  readonly environment: string;
  /** Per verdict (false, true, unknown): `{"name":…,"projectId":…,"strategies":{"result":…,"data":[`. */
  readonly openings: readonly [Bytes, Bytes, Bytes];
  readonly strategies: readonly StrategyTemplate[];
  /** The rest of the object when the feature is off, per `hasUnsatisfiedDependency`. */
  readonly offClosings: readonly [Bytes, Bytes];
  /** The rest when it is on without a variant. */
  readonly onClosing: Bytes;
  /** When it is on with a variant: up to `"variant":`, then the variant, then `tail`. */
  readonly onVariantClosing: Bytes;
  readonly tail: Bytes;
  /** The largest number of bytes an answer for this feature takes, a comma included. */
  readonly maxBytes: number;
}

export const constraintTemplates = new WeakMap<CompiledConstraint, ConstraintTemplate>();
export const segmentTemplates = new WeakMap<CompiledSegment, readonly ConstraintTemplate[]>();
export const featureTemplates = new WeakMap<CompiledFeature, FeatureTemplate>();
export const variantJson = new WeakMap<CompiledVariant, Bytes>();
/** The largest number of bytes a strategy's answer takes, a comma included. */
export const maxBytesOf = new WeakMap<StrategyTemplate, number>();

// Mirrors `explainConstraint`: the same members, in the same order, around the result.
export function constraintTemplate(constraint: CompiledConstraint): ConstraintTemplate {
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
  const json = (result: boolean) =>
    `{${joinMembers(before, `"result":${result}`)}${rest === '' ? '' : `,${rest}`}}`;
  template = {
    test: constraint.test,
    yes: utf8(json(true)),
    no: utf8(json(false)),
  };
  constraintTemplates.set(constraint, template);
  return template;
}

export function segmentConstraints(segment: CompiledSegment): readonly ConstraintTemplate[] {
  let templates = segmentTemplates.get(segment);
  if (!templates) {
    templates = segment.constraints.map(constraintTemplate);
    segmentTemplates.set(segment, templates);
  }
  return templates;
}

export function segmentTemplate(ref: CompiledStrategy['segments'][number]): SegmentTemplate {
  const { id, segment } = ref;
  if (!segment) {
    const missing = utf8(JSON.stringify({ id, name: '', result: false, constraints: [] }));
    return { missing, yes: missing, no: missing, constraints: [] };
  }
  const opening = (result: boolean) =>
    utf8(`{${joinMembers(members({ id, name: segment.name }), `"result":${result}`)},"constraints":[`);
  return { missing: null, yes: opening(true), no: opening(false), constraints: segmentConstraints(segment) };
}

export const length = (templates: readonly ConstraintTemplate[]) =>
  templates.reduce((sum, t) => sum + 1 + Math.max(t.yes.length, t.no.length), 0);

// Mirrors `explainStrategy`: name, id, result, disabled, segments, constraints, parameters, links, title.
export function strategyTemplate(
  feature: CompiledFeature,
  strategy: CompiledStrategy,
  environment: string,
): StrategyTemplate {
  const rest: { parameters: Record<string, string>; links: { edit: string }; title?: string } = {
    parameters: { ...strategy.parameters },
    links: { edit: editLink(feature, strategy, environment) },
  };
  if (typeof strategy.source.title === 'string') rest.title = strategy.source.title;
  const head = `{${joinMembers(members({ name: strategy.source.name, id: strategy.id }), '"result":')}`;
  const segments = strategy.segments.map(segmentTemplate);
  const constraints = strategy.constraints.map(constraintTemplate);
  const end = `],${members(rest)}}`;
  // Whatever follows the result up to the first part that depends on the context.
  let afterResult = `,"disabled":${!strategy.active},"segments":[`;
  if (segments.length === 0) {
    afterResult += '],"constraints":[';
    if (constraints.length === 0) afterResult += end;
  }
  const variants = Array.isArray(strategy.source.variants) ? strategy.source.variants.length : 0;
  const template: StrategyTemplate = {
    strategy,
    active: strategy.active,
    complete: strategy.complete,
    head: utf8(head),
    afterResult: utf8(afterResult),
    segments,
    segmentsEnd: segments.length > 0 ? utf8('],"constraints":[') : null,
    constraints,
    end: segments.length > 0 || constraints.length > 0 ? utf8(end) : null,
    resultCount:
      constraints.length + segments.reduce((sum, s) => sum + (s.missing ? 0 : s.constraints.length + 1), 0),
  };
  // A variant is bounded by its list's JSON; a generous bound costs nothing but buffer room.
  const variantBound = variants > 0 ? JSON.stringify(strategy.source.variants).length * 3 + 64 : 0;
  maxBytesOf.set(
    template,
    template.head.length +
      LONGEST_RESULT +
      template.afterResult.length +
      variantBound +
      segments.reduce(
        (sum, s) => sum + 1 + Math.max(s.yes.length, s.no.length) + length(s.constraints) + 2,
        0,
      ) +
      20 +
      length(constraints) +
      (template.end?.length ?? 0) +
      1,
  );
  return template;
}

// Mirrors `explainFeature`: name, projectId, strategies, hasUnsatisfiedDependency,
// isEnabledInCurrentEnvironment, isEnabled, variant, variants.
export function featureTemplate(feature: CompiledFeature, environment: string): FeatureTemplate {
  const cached = featureTemplates.get(feature);
  if (cached && cached.environment === environment) return cached;
  const variants = Array.isArray(feature.source.variants)
    ? feature.source.variants.filter((v) => v && typeof v === 'object').map(toVariant)
    : [];
  const head = `{${joinMembers(members({ name: feature.name, projectId: feature.project }), '"strategies":{"result":')}`;
  const tail = `,"variants":${JSON.stringify(variants)}}`;
  const closing = (unsatisfied: boolean, enabled: boolean) =>
    `]},"hasUnsatisfiedDependency":${unsatisfied},"isEnabledInCurrentEnvironment":${feature.enabled},"isEnabled":${enabled},"variant":`;
  const disabled = JSON.stringify({ name: 'disabled', enabled: false });
  const strategies = feature.strategies.map((strategy) => strategyTemplate(feature, strategy, environment));
  const template: FeatureTemplate = {
    environment,
    openings: [
      utf8(`${head}false,"data":[`),
      utf8(`${head}true,"data":[`),
      utf8(`${head}"unknown","data":[`),
    ],
    strategies,
    offClosings: [
      utf8(`${closing(false, false)}${disabled}${tail}`),
      utf8(`${closing(true, false)}${disabled}${tail}`),
    ],
    onClosing: utf8(`${closing(false, true)}${disabled}${tail}`),
    onVariantClosing: utf8(closing(false, true)),
    tail: utf8(tail),
    maxBytes: 0,
  };
  const featureVariantBound = variants.length > 0 ? JSON.stringify(variants).length * 3 + 64 : 0;
  (template as { maxBytes: number }).maxBytes =
    1 +
    template.openings[2].length +
    strategies.reduce((sum, s) => sum + maxBytesOf.get(s)!, 0) +
    Math.max(template.offClosings[0].length, template.offClosings[1].length, template.onClosing.length) +
    template.onVariantClosing.length +
    featureVariantBound +
    template.tail.length;
  featureTemplates.set(feature, template);
  return template;
}

export function variantToJson(variant: CompiledVariant): Bytes {
  let json = variantJson.get(variant);
  if (json === undefined) {
    json = utf8(JSON.stringify(playgroundVariant(variant)));
    variantJson.set(variant, json);
  }
  return json;
}
