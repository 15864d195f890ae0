// Variant selection of unleash-client 6.x, compiled per variant list: overrides first, then the
// cumulative-weight walk to the bucket of the sticky id hashed in the list's group.
import type { Override, Payload, VariantResult } from '../domain/variant.js';
import type { ClientVariant } from './client-features.js';
import { type EvaluationContext, resolveContextValue } from './evaluation-context.js';
import { hashWithPrefix, prefixHashState, VARIANT_SEED } from './murmur-hash.js';

/** A selectable variant with its answers prebuilt, so selection allocates nothing. */
export interface CompiledVariant {
  readonly name: string;
  readonly payload: Payload | undefined;
  /** The fast-path answer (frozen, shared by every call). */
  readonly result: Readonly<VariantResult>;
}

/** Picks a variant for a context, or `null` when the list yields none (total weight 0). */
export type VariantSelector = (context: EvaluationContext) => CompiledVariant | null;

interface OverrideRule {
  readonly variant: CompiledVariant;
  readonly matchers: readonly { readonly field: string; readonly values: ReadonlySet<string> }[];
}

/** Answer when the feature is on but yields no variant. */
export const VARIANT_NONE_ENABLED: Readonly<VariantResult> = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: true,
  featureEnabled: true,
});

/** Answer when the feature is off or unknown. */
export const VARIANT_NONE_DISABLED: Readonly<VariantResult> = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: false,
  featureEnabled: false,
});

function compileVariant(variant: ClientVariant): CompiledVariant {
  const payload = variant.payload ? Object.freeze({ ...variant.payload }) : undefined;
  const result: VariantResult = {
    name: variant.name,
    enabled: true,
    feature_enabled: true,
    featureEnabled: true,
  };
  if (payload) result.payload = payload;
  return Object.freeze({ name: variant.name, payload, result: Object.freeze(result) });
}

function randomVariantId(): string {
  return String(Math.round(Math.random() * 100000));
}

// Sticky id of a variant bucket: `default` tries userId, sessionId, then remoteAddress (note: one more
// field than rollouts use), any other stickiness reads that context field; missing means random.
function createStickyId(stickiness: string): (context: EvaluationContext) => string {
  if (stickiness === 'default') {
    return (context) => {
      const { userId, sessionId, remoteAddress } = context;
      if (typeof userId === 'string' && userId !== '') return userId;
      if (typeof sessionId === 'string' && sessionId !== '') return sessionId;
      if (typeof remoteAddress === 'string' && remoteAddress !== '') return remoteAddress;
      return randomVariantId();
    };
  }
  return (context) => resolveContextValue(context, stickiness) || randomVariantId();
}

/**
 * Compiles a variant list. `groupId` is the feature name for feature variants and the strategy's
 * `groupId` parameter for strategy variants; `stickiness` is what the SDK reads for that list.
 */
export function compileVariantSelector(
  variants: readonly ClientVariant[] | null | undefined,
  groupId: string,
  stickiness: string,
): VariantSelector | null {
  // Typed copy: `Array.isArray` would widen a readonly list to `any[]`.
  const list: readonly ClientVariant[] = Array.isArray(variants) ? variants : [];
  if (list.length === 0) return null;
  const valid = list.filter((variant) => variant && typeof variant === 'object');
  const compiled = valid.map(compileVariant);
  const weights = valid.map((variant) => Number(variant.weight) || 0);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  if (totalWeight <= 0) return () => null;

  const overrides: OverrideRule[] = [];
  valid.forEach((variant, i) => {
    const rules: readonly Override[] = Array.isArray(variant.overrides)
      ? variant.overrides.filter((override) => override && typeof override === 'object')
      : [];
    if (rules.length === 0) return;
    overrides.push({
      variant: compiled[i]!,
      matchers: rules.map((override) => ({
        field: override.contextName,
        values: new Set(Array.isArray(override.values) ? override.values : []),
      })),
    });
  });

  // Upper bound of each variant's bucket range; weight-0 variants never own a bucket.
  const bounds: number[] = [];
  const owners: CompiledVariant[] = [];
  let counter = 0;
  weights.forEach((weight, i) => {
    if (weight === 0) return;
    counter += weight;
    bounds.push(counter);
    owners.push(compiled[i]!);
  });

  const prefix = prefixHashState(`${groupId}:`, VARIANT_SEED);
  const stickyId = createStickyId(stickiness);

  return (context) => {
    for (let i = 0; i < overrides.length; i++) {
      const rule = overrides[i]!;
      for (let j = 0; j < rule.matchers.length; j++) {
        const matcher = rule.matchers[j]!;
        const value = resolveContextValue(context, matcher.field);
        if (value !== undefined && matcher.values.has(value)) return rule.variant;
      }
    }
    const target = (hashWithPrefix(prefix, stickyId(context)) % totalWeight) + 1;
    for (let i = 0; i < bounds.length; i++) if (bounds[i]! >= target) return owners[i]!;
    return null;
  };
}
