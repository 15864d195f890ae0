// The playground answer serialized directly: the same compiled strategies and the same decisions as
// `explainFeatures`, but every part of the explanation that does not depend on the context (names,
// ids, parameters, edit links, constraint definitions, variant lists) is serialized and UTF-8 encoded
// once per compiled feature and environment, with each of its few possible outcomes (a constraint
// that holds or not, each strategy status) spelled out. A request evaluates a feature, then copies
// the matching fragments into one byte buffer: no explanation objects, no string building, no
// encoding. `explainFeaturesJson(...)` is exactly `JSON.stringify(explainFeatures(...))`.
import type { CompiledFeature, CompiledFeatureSet } from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';
import { type ExplainOptions, selectFeatures } from './explain-features.js';
import {
  type Bytes,
  COMPLETE_OFF,
  COMPLETE_ON,
  type ConstraintTemplate,
  decoder,
  type FeatureTemplate,
  featureTemplate,
  INCOMPLETE_OFF,
  INCOMPLETE_UNKNOWN,
  RESULTS,
  type StrategyTemplate,
  UNEVALUATED,
  utf8,
  VARIANT_RESULT,
  variantToJson,
} from './explain-json-templates.js';
import { type ByteWriter, createByteWriter } from './explain-json-writer.js';

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const SEGMENT_END = utf8(']}');

// Evaluation runs first, for the whole feature, in the order `explainFeature` runs it (constraints,
// segments, rule and variant per strategy, then dependencies and the feature variant), recording
// each result; the writing pass then reads them back. The scratch space belongs to one call and is
// reused across the features it writes.
interface Scratch {
  results: boolean[];
  kinds: number[];
  variants: (Bytes | null)[];
  /** Each strategy's outcome key (`outcomeKey`). */
  keys: number[];
}

const newScratch = (): Scratch => ({ results: [], kinds: [], variants: [], keys: [] });

function evaluateConstraints(
  { results }: Scratch,
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
  scratch: Scratch,
  template: StrategyTemplate,
  context: EvaluationContext,
  at: number,
  index: number,
): number {
  const { results, variants } = scratch;
  let passesGates = evaluateConstraints(scratch, template.constraints, context, at);
  let cursor = at + template.constraints.length;
  for (const segment of template.segments) {
    if (segment.missing) {
      passesGates = false;
      continue;
    }
    const pass = evaluateConstraints(scratch, segment.constraints, context, cursor);
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

function writeConstraints(
  { results }: Scratch,
  out: ByteWriter,
  templates: readonly ConstraintTemplate[],
  at: number,
): void {
  for (let i = 0; i < templates.length; i++) {
    const template = templates[i]!;
    if (i > 0) out.putByte(COMMA);
    out.put(results[at + i] ? template.yes : template.no);
  }
}

/**
 * Answers per outcome, written once and copied after: without a variant, a strategy's answer is fixed
 * by its kind and recorded results, and a feature's by its strategies' outcomes, its verdict and how
 * it closes; the contexts of one playground mostly share a few outcomes. Keyed by template, so they
 * go with the compiled configuration.
 */
const strategyAnswers = new WeakMap<StrategyTemplate, Map<number, Bytes>>();
const featureAnswers = new WeakMap<FeatureTemplate, Map<string, Bytes>>();
/** Outcomes remembered per strategy, and per feature. */
const ANSWERS_PER_STRATEGY = 8;
/** The most results an outcome key holds: (kind + 1) · 2^results stays an exact integer. */
const MAX_KEYED_RESULTS = 40;

/** The outcome as an integer (kind, then one bit per recorded result); -1 when it cannot be keyed. */
function outcomeKey(scratch: Scratch, template: StrategyTemplate, at: number, index: number): number {
  if (scratch.variants[index] || template.resultCount > MAX_KEYED_RESULTS) return -1;
  const { results } = scratch;
  let key = scratch.kinds[index]! + 1;
  for (let i = 0; i < template.resultCount; i++) key = key * 2 + (results[at + i] ? 1 : 0);
  return key;
}

function writeStrategy(
  scratch: Scratch,
  out: ByteWriter,
  template: StrategyTemplate,
  at: number,
  index: number,
): void {
  const key = scratch.keys[index]!;
  const known = key < 0 ? undefined : strategyAnswers.get(template)?.get(key);
  if (known) {
    out.put(known);
    return;
  }
  const start = out.length;
  writeStrategyParts(scratch, out, template, at, index);
  if (key >= 0) remember(strategyAnswers, template, key, out, start);
}

/** Keeps a copy of what was written since `start` (the writer's buffer is the caller's answer). */
function remember<T extends object, K>(
  memo: WeakMap<T, Map<K, Bytes>>,
  template: T,
  key: K,
  out: ByteWriter,
  start: number,
): void {
  let answers = memo.get(template);
  if (!answers) {
    answers = new Map();
    memo.set(template, answers);
  }
  if (answers.size < ANSWERS_PER_STRATEGY)
    answers.set(key, new Uint8Array(out.bytes.subarray(start, out.length)));
}

function writeStrategyParts(
  scratch: Scratch,
  out: ByteWriter,
  template: StrategyTemplate,
  at: number,
  index: number,
): void {
  const { results } = scratch;
  const kind = scratch.kinds[index]!;
  const variant = scratch.variants[index];
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
      writeConstraints(scratch, out, segment.constraints, cursor);
      out.put(SEGMENT_END);
      cursor += count + 1;
    }
    out.put(template.segmentsEnd);
  }
  writeConstraints(scratch, out, template.constraints, at);
  if (template.end) out.put(template.end);
}

function writeFeature(
  scratch: Scratch,
  out: ByteWriter,
  feature: CompiledFeature,
  template: FeatureTemplate,
  context: EvaluationContext,
): void {
  const strategies = template.strategies;
  let size = 0;
  for (const strategy of strategies) size += strategy.resultCount;
  if (scratch.results.length < size) scratch.results = new Array<boolean>(size * 2).fill(false);
  if (scratch.kinds.length < strategies.length) {
    scratch.kinds = new Array<number>(strategies.length * 2).fill(0);
    scratch.variants = new Array<Bytes | null>(strategies.length * 2).fill(null);
    scratch.keys = new Array<number>(strategies.length * 2).fill(-1);
  }
  const { kinds, variants, keys } = scratch;

  let anyOn = false;
  let anyUnknown = false;
  let allDisabled = true;
  // The deciding strategy is the first complete one that is on: the one the fast path would pick.
  let decided: Bytes | null | undefined;
  for (let i = 0, at = 0; i < strategies.length; i++) {
    const strategy = strategies[i]!;
    const kind = evaluateStrategy(scratch, strategy, context, at, i);
    kinds[i] = kind;
    keys[i] = outcomeKey(scratch, strategy, at, i);
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

  const opening = result === 'unknown' ? 2 : result ? 1 : 0;
  const closing = !isEnabled ? (hasUnsatisfiedDependency ? 1 : 0) : variant === null ? 2 : -1;
  let key: string | null = closing < 0 ? null : `${opening}${closing}`;
  for (let i = 0; key !== null && i < strategies.length; i++) key = keys[i]! < 0 ? null : `${key},${keys[i]}`;
  const known = key === null ? undefined : featureAnswers.get(template)?.get(key);
  if (known) {
    out.put(known);
    return;
  }
  const start = out.length;
  out.put(template.openings[opening]!);
  for (let i = 0, at = 0; i < strategies.length; i++) {
    const strategy = strategies[i]!;
    if (i > 0) out.putByte(COMMA);
    writeStrategy(scratch, out, strategy, at, i);
    at += strategy.resultCount;
  }
  if (!isEnabled) out.put(template.offClosings[hasUnsatisfiedDependency ? 1 : 0]);
  else if (variant === null) out.put(template.onClosing);
  else {
    out.put(template.onVariantClosing);
    out.put(variant);
    out.put(template.tail);
  }
  if (key !== null) remember(featureAnswers, template, key, out, start);
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
  return explainSelectedJsonBytes(selectFeatures(compiled, options), context, options.environment, frame);
}

/** As `explainFeaturesJsonBytes`, for features already selected (a page of them). */
export function explainSelectedJsonBytes(
  features: readonly CompiledFeature[],
  context: EvaluationContext,
  environment: string,
  frame: ExplainJsonFrame = { before: '', after: '' },
): Uint8Array {
  let bytes: Uint8Array = new Uint8Array(0);
  for (const chunk of explainSelectedJsonChunks(features, context, environment, frame, Infinity))
    bytes = chunk;
  return bytes;
}

/**
 * The same bytes as `explainSelectedJsonBytes`, in pieces of `featuresPerChunk` features (the frame's
 * `before` in the first, `after` in the last): a large answer is written out as it is made rather than
 * held whole in memory. Each chunk is a fresh buffer the consumer owns.
 */
export function* explainSelectedJsonChunks(
  features: readonly CompiledFeature[],
  context: EvaluationContext,
  environment: string,
  frame: ExplainJsonFrame,
  featuresPerChunk: number,
): Generator<Uint8Array> {
  const scratch = newScratch();
  const before = utf8(frame.before);
  const after = utf8(frame.after);
  let i = 0;
  do {
    const end = Math.min(features.length, i + featuresPerChunk);
    const templates: FeatureTemplate[] = [];
    let capacity = 2;
    for (let k = i; k < end; k++) {
      const template = featureTemplate(features[k]!, environment);
      templates.push(template);
      capacity += template.maxBytes + 1;
    }
    const first = i === 0;
    const last = end === features.length;
    const out = createByteWriter(capacity + (first ? before.length : 0) + (last ? after.length : 0));
    if (first) {
      out.put(before);
      out.putByte(0x5b); // [
    }
    for (let k = i; k < end; k++) {
      if (k > 0) out.putByte(COMMA);
      writeFeature(scratch, out, features[k]!, templates[k - i]!, context);
    }
    if (last) {
      out.putByte(0x5d); // ]
      out.put(after);
    }
    i = end;
    yield out.bytes.subarray(0, out.length);
  } while (i < features.length);
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
  const out = createByteWriter(template.maxBytes);
  writeFeature(newScratch(), out, feature, template, context);
  return decoder.decode(out.bytes.subarray(0, out.length));
}
