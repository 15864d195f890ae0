import type { CompiledFeature, EvaluationContext as UnleashContext, VariantResult } from '@flagstaff/core';
import {
  type FlagMetadata,
  FlagNotFoundError,
  type JsonValue,
  ParseError,
  type ResolutionDetails,
  StandardResolutionReasons,
  TypeMismatchError,
} from '@openfeature/server-sdk';

/** What evaluating one feature for one context gave, before it is read as a typed value. */
export interface Evaluation {
  on: boolean;
  reason: string;
  variant: { name: string; payload: VariantResult['payload'] } | null;
  flagMetadata: FlagMetadata;
}

type Override = { contextName?: unknown; values?: unknown };

/** Whether one of the variant's overrides names the context's value (it then won by targeting, not by weight). */
function overrideMatched(feature: CompiledFeature, variantName: string, context: UnleashContext): boolean {
  const variants = Array.isArray(feature.source.variants) ? feature.source.variants : [];
  const overrides: readonly Override[] = variants.find((v) => v?.name === variantName)?.overrides ?? [];
  return overrides.some((o) => {
    if (typeof o.contextName !== 'string' || !Array.isArray(o.values)) return false;
    const value = context[o.contextName] ?? context.properties?.[o.contextName];
    return value !== undefined && value !== null && o.values.includes(String(value));
  });
}

/**
 * Evaluates a feature the way `isEnabled` and `getVariant` do (strategy variants first, then the
 * feature's), once, keeping what the OpenFeature reason and metadata need: which strategy turned it
 * on and how the variant was picked.
 */
export function evaluate(
  feature: CompiledFeature | undefined,
  name: string,
  context: UnleashContext,
): Evaluation {
  if (!feature) throw new FlagNotFoundError(`Flag "${name}" does not exist in this environment.`);
  const metadata: FlagMetadata = { project: feature.project };
  if (!feature.enabled)
    return { on: false, reason: StandardResolutionReasons.DISABLED, variant: null, flagMetadata: metadata };
  const strategy = feature.match(context);
  if (strategy === null)
    return { on: false, reason: StandardResolutionReasons.DEFAULT, variant: null, flagMetadata: metadata };
  // A feature with no strategy is on for everyone: nothing about the context decided it.
  const byStrategy = strategy.id !== '';
  if (byStrategy) {
    metadata.strategyId = strategy.id;
    metadata.strategyName = strategy.source.name;
  }
  const fromStrategy = strategy.selectVariant?.(context) ?? null;
  const chosen = fromStrategy ?? feature.selectVariant?.(context) ?? null;
  if (chosen === null)
    return {
      on: true,
      reason: byStrategy ? StandardResolutionReasons.TARGETING_MATCH : StandardResolutionReasons.STATIC,
      variant: null,
      flagMetadata: metadata,
    };
  metadata.variant = chosen.name;
  const targeted = fromStrategy === null && overrideMatched(feature, chosen.name, context);
  return {
    on: true,
    reason: targeted ? StandardResolutionReasons.TARGETING_MATCH : StandardResolutionReasons.SPLIT,
    variant: { name: chosen.name, payload: chosen.payload },
    flagMetadata: metadata,
  };
}

/** The boolean answer: whether the feature is on for the context. */
export function booleanDetails(evaluation: Evaluation): ResolutionDetails<boolean> {
  return {
    value: evaluation.on,
    reason: evaluation.reason,
    flagMetadata: evaluation.flagMetadata,
    ...(evaluation.variant ? { variant: evaluation.variant.name } : {}),
  };
}

export type PayloadKind = 'string' | 'number' | 'object';

/** Reads the payload as the requested type; TYPE_MISMATCH when the payload's type does not fit. */
function readPayload(
  kind: PayloadKind,
  payload: NonNullable<VariantResult['payload']>,
  name: string,
): JsonValue {
  const mismatch = () =>
    new TypeMismatchError(`Flag "${name}" has a ${payload.type} payload; a ${kind} was asked for.`);
  if (kind === 'string') {
    if (payload.type !== 'string' && payload.type !== 'csv') throw mismatch();
    return payload.value;
  }
  if (kind === 'number') {
    if (payload.type !== 'number') throw mismatch();
    const value = Number(payload.value);
    if (payload.value.trim() === '' || !Number.isFinite(value))
      throw new ParseError(
        `Flag "${name}" has the number payload "${payload.value}", which is not a number.`,
      );
    return value;
  }
  if (payload.type !== 'json') throw mismatch();
  let value: unknown;
  try {
    value = JSON.parse(payload.value);
  } catch {
    throw new ParseError(`Flag "${name}" has a json payload that is not valid JSON.`);
  }
  if (value === null || typeof value !== 'object') throw mismatch();
  return value as JsonValue;
}

/**
 * A string, number or object answer from the variant's payload; the default, with reason DEFAULT
 * (or DISABLED), when the feature is off or no variant with a payload was chosen.
 */
export function payloadDetails<T extends JsonValue>(
  kind: PayloadKind,
  evaluation: Evaluation,
  name: string,
  defaultValue: T,
): ResolutionDetails<T> {
  const { variant, flagMetadata } = evaluation;
  if (!evaluation.on) return { value: defaultValue, reason: evaluation.reason, flagMetadata };
  if (!variant?.payload)
    return {
      value: defaultValue,
      reason: StandardResolutionReasons.DEFAULT,
      flagMetadata,
      ...(variant ? { variant: variant.name } : {}),
    };
  return {
    // The payload kind was checked against the type asked for; T is that type as the caller names it.
    value: readPayload(kind, variant.payload, name) as T,
    variant: variant.name,
    reason: evaluation.reason,
    flagMetadata,
  };
}
