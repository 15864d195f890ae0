// The playground answer serialized directly: the same compiled strategies and the same decisions as
// `explainFeatures`, but every part of the explanation that does not depend on the context (names,
// ids, parameters, edit links, constraint definitions, variant lists) is serialized and UTF-8 encoded
// once per compiled feature and environment, with each of its few possible outcomes (a constraint
// that holds or not, each strategy status) spelled out. A request evaluates a feature, then copies
// the matching fragments into one byte buffer: no explanation objects, no string building, no
// encoding. `explainFeaturesJson(...)` is exactly `JSON.stringify(explainFeatures(...))`.
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

type Bytes = Uint8Array;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Fragments are encoded into shared arenas: a request then copies from a few contiguous blocks
// rather than from thousands of separately allocated buffers.
const ARENA_SIZE = 1 << 18;
let arena = new Uint8Array(ARENA_SIZE);
let arenaUsed = 0;

function utf8(text: string): Bytes {
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
function members(value: object): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Members joined with commas, empty ones left out. */
function joinMembers(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(',');
}

/** A constraint's JSON with `result` true and false. */
interface ConstraintTemplate {
  readonly test: CompiledConstraint['test'];
  readonly yes: Bytes;
  readonly no: Bytes;
}

/** A segment reference: `missing` when the id is unknown, else an opening per result. */
interface SegmentTemplate {
  readonly missing: Bytes | null;
  /** `{"id":…,"name":…,"result":true,"constraints":[` */
  readonly yes: Bytes;
  readonly no: Bytes;
  readonly constraints: readonly ConstraintTemplate[];
}

// What a strategy reports (`result`); the order indexes `RESULTS`.
const UNEVALUATED = 0;
const INCOMPLETE_UNKNOWN = 1;
const INCOMPLETE_OFF = 2;
const COMPLETE_ON = 3;
const COMPLETE_OFF = 4;
const RESULTS: readonly Bytes[] = [
  '{"evaluationStatus":"unevaluated","enabled":"unknown"}',
  '{"evaluationStatus":"incomplete","enabled":"unknown"}',
  '{"evaluationStatus":"incomplete","enabled":false}',
  '{"evaluationStatus":"complete","enabled":true}',
  '{"evaluationStatus":"complete","enabled":false}',
].map((result) => encoder.encode(result));
/** A complete result that is on with a variant: this, the variant, then `}`. */
const VARIANT_RESULT = encoder.encode('{"evaluationStatus":"complete","enabled":true,"variant":');
const LONGEST_RESULT = Math.max(...RESULTS.map((result) => result.length), VARIANT_RESULT.length + 1);

interface StrategyTemplate {
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

interface FeatureTemplate {
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

const constraintTemplates = new WeakMap<CompiledConstraint, ConstraintTemplate>();
const segmentTemplates = new WeakMap<CompiledSegment, readonly ConstraintTemplate[]>();
const featureTemplates = new WeakMap<CompiledFeature, FeatureTemplate>();
const variantJson = new WeakMap<CompiledVariant, Bytes>();
/** The largest number of bytes a strategy's answer takes, a comma included. */
const maxBytesOf = new WeakMap<StrategyTemplate, number>();

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
    const missing = utf8(JSON.stringify({ id, name: '', result: false, constraints: [] }));
    return { missing, yes: missing, no: missing, constraints: [] };
  }
  const opening = (result: boolean) =>
    utf8(`{${joinMembers(members({ id, name: segment.name }), `"result":${result}`)},"constraints":[`);
  return { missing: null, yes: opening(true), no: opening(false), constraints: segmentConstraints(segment) };
}

const length = (templates: readonly ConstraintTemplate[]) =>
  templates.reduce((sum, t) => sum + 1 + Math.max(t.yes.length, t.no.length), 0);

// Mirrors `explainStrategy`: name, id, result, disabled, segments, constraints, parameters, links, title.
function strategyTemplate(
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
function featureTemplate(feature: CompiledFeature, environment: string): FeatureTemplate {
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

function variantToJson(variant: CompiledVariant): Bytes {
  let json = variantJson.get(variant);
  if (json === undefined) {
    json = utf8(JSON.stringify(playgroundVariant(variant)));
    variantJson.set(variant, json);
  }
  return json;
}

/** An append-only byte buffer, grown by doubling (sized up front, it never needs to). */
class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    // Every byte up to `length` is written before it is read: no need to zero the memory first.
    this.bytes = Buffer.allocUnsafe(Math.max(capacity, 64));
  }

  put(fragment: Bytes): void {
    const n = fragment.length;
    let at = this.length;
    if (at + n > this.bytes.length) this.grow(n);
    const bytes = this.bytes;
    // Short fragments copy faster by hand than through a native call.
    if (n < 32) for (let i = 0; i < n; i++) bytes[at++] = fragment[i]!;
    else bytes.set(fragment, at);
    this.length += n;
  }

  putByte(byte: number): void {
    if (this.length === this.bytes.length) this.grow(1);
    this.bytes[this.length++] = byte;
  }

  private grow(needed: number): void {
    const bytes = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + needed));
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
  }
}

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const SEGMENT_END = utf8(']}');

// Evaluation runs first, for the whole feature, in the order `explainFeature` runs it (constraints,
// segments, rule and variant per strategy, then dependencies and the feature variant), recording
// each result; the writing pass then reads them back. The scratch space is reused across calls
// (evaluation is synchronous).
let results: boolean[] = [];
let kinds: number[] = [];
let variants: (Bytes | null)[] = [];

function evaluateConstraints(
  templates: readonly ConstraintTemplate[],
  context: EvaluationContext,
  at: number,
): boolean {
  let all = true;
  for (let i = 0; i < templates.length; i++) {
    const result = templates[i]!.test(context);
    results[at + i] = result;
    if (!result) all = false;
  }
  return all;
}

/** Records the strategy's results from `at`; returns its kind. */
function evaluateStrategy(
  template: StrategyTemplate,
  context: EvaluationContext,
  at: number,
  index: number,
): number {
  let passesGates = evaluateConstraints(template.constraints, context, at);
  let cursor = at + template.constraints.length;
  for (const segment of template.segments) {
    if (segment.missing) {
      passesGates = false;
      continue;
    }
    const pass = evaluateConstraints(segment.constraints, context, cursor);
    cursor += segment.constraints.length;
    results[cursor++] = pass;
    if (!pass) passesGates = false;
  }
  variants[index] = null;
  if (!template.active) return UNEVALUATED;
  if (!template.complete) return passesGates ? INCOMPLETE_UNKNOWN : INCOMPLETE_OFF;
  const { strategy } = template;
  const enabled = passesGates && strategy.rule!(context);
  if (!enabled) return COMPLETE_OFF;
  const variant = strategy.selectVariant?.(context);
  if (variant) variants[index] = variantToJson(variant);
  return COMPLETE_ON;
}

function writeConstraints(out: ByteWriter, templates: readonly ConstraintTemplate[], at: number): void {
  for (let i = 0; i < templates.length; i++) {
    const template = templates[i]!;
    if (i > 0) out.putByte(COMMA);
    out.put(results[at + i] ? template.yes : template.no);
  }
}

function writeStrategy(out: ByteWriter, template: StrategyTemplate, at: number, index: number): void {
  const kind = kinds[index]!;
  const variant = variants[index];
  out.put(template.head);
  if (variant) {
    out.put(VARIANT_RESULT);
    out.put(variant);
    out.putByte(CLOSE_BRACE);
  } else {
    out.put(RESULTS[kind]!);
  }
  out.put(template.afterResult);
  if (template.segmentsEnd) {
    let cursor = at + template.constraints.length;
    for (let i = 0; i < template.segments.length; i++) {
      const segment = template.segments[i]!;
      if (i > 0) out.putByte(COMMA);
      if (segment.missing) {
        out.put(segment.missing);
        continue;
      }
      const count = segment.constraints.length;
      out.put(results[cursor + count] ? segment.yes : segment.no);
      writeConstraints(out, segment.constraints, cursor);
      out.put(SEGMENT_END);
      cursor += count + 1;
    }
    out.put(template.segmentsEnd);
  }
  writeConstraints(out, template.constraints, at);
  if (template.end) out.put(template.end);
}

function writeFeature(
  out: ByteWriter,
  feature: CompiledFeature,
  template: FeatureTemplate,
  context: EvaluationContext,
): void {
  const strategies = template.strategies;
  let size = 0;
  for (const strategy of strategies) size += strategy.resultCount;
  if (results.length < size) results = new Array<boolean>(size * 2).fill(false);
  if (kinds.length < strategies.length) {
    kinds = new Array<number>(strategies.length * 2).fill(0);
    variants = new Array<Bytes | null>(strategies.length * 2).fill(null);
  }

  let anyOn = false;
  let anyUnknown = false;
  let allDisabled = true;
  // The deciding strategy is the first complete one that is on: the one the fast path would pick.
  let decided: Bytes | null | undefined;
  for (let i = 0, at = 0; i < strategies.length; i++) {
    const strategy = strategies[i]!;
    const kind = evaluateStrategy(strategy, context, at, i);
    kinds[i] = kind;
    at += strategy.resultCount;
    if (kind !== UNEVALUATED) allDisabled = false;
    if (kind === UNEVALUATED || kind === INCOMPLETE_UNKNOWN) anyUnknown = true;
    if (kind === COMPLETE_ON) {
      anyOn = true;
      if (decided === undefined) decided = variants[i];
    }
  }

  // Same verdict as `overallResult`.
  let result: boolean | 'unknown';
  if (!feature.wellFormed) result = false;
  else if (strategies.length === 0) result = feature.enabled;
  else if (allDisabled) result = false;
  else if (anyOn) result = true;
  else if (anyUnknown) result = 'unknown';
  else result = false;

  const hasUnsatisfiedDependency = !feature.dependenciesSatisfied(context);
  const isEnabled = result === true && feature.enabled && !hasUnsatisfiedDependency;
  let variant: Bytes | null = null;
  if (isEnabled) {
    if (decided) variant = decided;
    else {
      const fromFeature = feature.selectVariant?.(context);
      if (fromFeature) variant = variantToJson(fromFeature);
    }
  }

  out.put(template.openings[result === 'unknown' ? 2 : result ? 1 : 0]);
  for (let i = 0, at = 0; i < strategies.length; i++) {
    const strategy = strategies[i]!;
    if (i > 0) out.putByte(COMMA);
    writeStrategy(out, strategy, at, i);
    at += strategy.resultCount;
  }
  if (!isEnabled) out.put(template.offClosings[hasUnsatisfiedDependency ? 1 : 0]);
  else if (variant === null) out.put(template.onClosing);
  else {
    out.put(template.onVariantClosing);
    out.put(variant);
    out.put(template.tail);
  }
}

/** Where the playground answer goes: around the features list, `before` and `after` (JSON text). */
export interface ExplainJsonFrame {
  before: string;
  after: string;
}

/**
 * `JSON.stringify(explainFeatures(compiled, context, options))` as UTF-8 bytes, optionally framed
 * (`before` + list + `after`, to write a whole answer at once), without building the explanation
 * objects. The bytes are a fresh copy the caller owns.
 */
export function explainFeaturesJsonBytes(
  compiled: CompiledFeatureSet,
  context: EvaluationContext,
  options: ExplainOptions,
  frame: ExplainJsonFrame = { before: '', after: '' },
): Uint8Array {
  const projects =
    options.projects === undefined || options.projects === '*' ? null : new Set(options.projects);
  const selected: CompiledFeature[] = [];
  const templates: FeatureTemplate[] = [];
  let capacity = 0;
  for (const feature of compiled.features) {
    if (projects === null || projects.has(feature.project)) {
      const template = featureTemplate(feature, options.environment);
      selected.push(feature);
      templates.push(template);
      capacity += template.maxBytes;
    }
  }
  const before = utf8(frame.before);
  const after = utf8(frame.after);
  const out = new ByteWriter(capacity + before.length + after.length + 2);
  out.put(before);
  out.putByte(0x5b); // [
  for (let i = 0; i < selected.length; i++) {
    if (i > 0) out.putByte(COMMA);
    writeFeature(out, selected[i]!, templates[i]!, context);
  }
  out.putByte(0x5d); // ]
  out.put(after);
  return out.bytes.subarray(0, out.length);
}

/** `JSON.stringify(explainFeatures(compiled, context, options))`, from prebuilt fragments. */
export function explainFeaturesJson(
  compiled: CompiledFeatureSet,
  context: EvaluationContext,
  options: ExplainOptions,
): string {
  return decoder.decode(explainFeaturesJsonBytes(compiled, context, options));
}

/** `JSON.stringify(explainFeature(feature, context, environment))`, from prebuilt fragments. */
export function explainFeatureJson(
  feature: CompiledFeature,
  context: EvaluationContext,
  environment: string,
): string {
  const template = featureTemplate(feature, environment);
  const out = new ByteWriter(template.maxBytes);
  writeFeature(out, feature, template, context);
  return decoder.decode(out.bytes.subarray(0, out.length));
}
