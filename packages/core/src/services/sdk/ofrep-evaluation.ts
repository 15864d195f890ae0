import { FlagstaffError } from '../../errors.js';
import type { CompiledFeature, CompiledFeatureSet } from '../../evaluation/compile-features.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';

/** OFREP reasons Flagstaff answers with (OpenFeature resolution reasons). */
export type OfrepReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';

/** One flag evaluated for OFREP: its on/off value, variant and payload. */
export interface OfrepEvaluation {
  key: string;
  value: boolean | string | number | Record<string, unknown> | unknown[];
  reason: OfrepReason;
  variant?: string;
  metadata: Record<string, string | number | boolean>;
}

/** OFREP error codes a request can fail with (the protocol's names). */
export type OfrepErrorCode = 'PARSE_ERROR' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL';

/** A refused OFREP request: a VALIDATION error that names its OFREP code for the HTTP layer. */
export const ofrepInvalid = (code: OfrepErrorCode, message: string): FlagstaffError =>
  new FlagstaffError('VALIDATION', message, { ofrepErrorCode: code });

/** Unleash context fields an OpenFeature context carries under the same name. */
const TOP_LEVEL = new Set(['appName', 'sessionId', 'remoteAddress', 'currentTime', 'environment']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A context attribute as Unleash reads it: a string (numbers and booleans written out), else absent. */
function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The Unleash context of an OFREP request body `{ context: {...} }`: `targetingKey` becomes
 * `userId`, the Unleash fields keep their names, every other attribute goes to `properties`.
 * Attributes that are objects or lists are dropped: Unleash constraints only compare strings. A
 * body without a context evaluates an empty context (providers send none before one is set).
 */
export function ofrepContext(body: unknown): EvaluationContext {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw ofrepInvalid('INVALID_CONTEXT', 'The request body must be an object.');
  const raw = body.context;
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw ofrepInvalid('INVALID_CONTEXT', '"context" must be an object.');
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'targetingKey') {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string')
        throw ofrepInvalid('INVALID_CONTEXT', '"context.targetingKey" must be a string.');
      context.userId = value;
      continue;
    }
    const text = asString(value);
    if (text === undefined) continue;
    if (TOP_LEVEL.has(name)) context[name] = text;
    else if (name === 'properties' && isObject(value)) continue;
    else properties[name] = text;
  }
  // Unleash's own `properties` object, when a caller sends one, is read as properties too.
  if (isObject(raw.properties))
    for (const [name, value] of Object.entries(raw.properties)) {
      const text = asString(value);
      if (text !== undefined) properties[name] ??= text;
    }
  if (Object.keys(properties).length > 0) context.properties = properties;
  return context;
}

/** A strategy that turns a flag on for everyone: the plain `default` strategy, unconstrained. */
const unconditional = (feature: CompiledFeature): boolean =>
  feature.strategies
    .filter((s) => s.active)
    .every(
      (s) =>
        s.source.name === 'default' && s.constraints.length === 0 && (s.source.segments ?? []).length === 0,
    );

/** The payload as its type says (`json` parsed, `number` a number); its text when it does not parse. */
function typedPayload(type: string, value: string): OfrepEvaluation['value'] {
  if (type === 'number') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (type === 'json') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isObject(parsed) || Array.isArray(parsed)) return parsed as OfrepEvaluation['value'];
    } catch {
      // A payload that is not JSON after all stays text.
    }
  }
  return value;
}

/**
 * One flag for one context, with the same compiled evaluator the SDK and frontend APIs use. The
 * value is the flag's on/off; a variant that applies adds its name and payload (in `metadata`, as
 * `payloadType` and `payload` text). With `typed`, a payload is the value instead, typed as it was
 * declared: OFREP carries no type in the request, so the server fixes one per flag (see ofrep.md).
 */
export function evaluateOfrepFlag(
  compiled: CompiledFeatureSet,
  feature: CompiledFeature,
  context: EvaluationContext,
  typed = false,
): OfrepEvaluation {
  const key = feature.name;
  if (!feature.enabled) return { key, value: false, reason: 'DISABLED', metadata: { enabled: false } };
  const on = compiled.isEnabled(key, context);
  if (!on) return { key, value: false, reason: 'DEFAULT', metadata: { enabled: false } };
  const variant = compiled.getVariant(key, context);
  const metadata: OfrepEvaluation['metadata'] = { enabled: true };
  let reason: OfrepReason = unconditional(feature) ? 'STATIC' : 'TARGETING_MATCH';
  if (!variant.enabled) return { key, value: true, reason, metadata };
  // A variant picked by weight among several is a split; a single variant or an override is not.
  const variants = feature.source.variants ?? [];
  const strategyVariants = feature.strategies.some((s) => (s.source.variants ?? []).length > 1);
  if (strategyVariants || variants.length > 1) reason = 'SPLIT';
  let value: OfrepEvaluation['value'] = true;
  if (variant.payload) {
    metadata.payloadType = variant.payload.type;
    metadata.payload = variant.payload.value;
    if (typed) value = typedPayload(variant.payload.type, variant.payload.value);
  }
  return { key, value, reason, variant: variant.name, metadata };
}
