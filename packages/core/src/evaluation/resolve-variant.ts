import type { VariantResult } from '../domain/variant.js';
import type { CompiledFeature } from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';
import { VARIANT_NONE_DISABLED, VARIANT_NONE_ENABLED } from './select-variant.js';

/**
 * The variant of a compiled feature for a context: the variants of the strategy that turned it on,
 * then the feature's own, then `disabled` (frozen, shared results; nothing is allocated).
 */
export function resolveVariant(
  feature: CompiledFeature,
  context: EvaluationContext,
): Readonly<VariantResult> {
  const strategy = feature.match(context);
  if (strategy === null) return VARIANT_NONE_DISABLED;
  // A strategy list whose weights sum to 0 yields no variant and falls through, as in the SDK.
  const chosen = strategy.selectVariant?.(context) ?? feature.selectVariant?.(context);
  return chosen ? chosen.result : VARIANT_NONE_ENABLED;
}
