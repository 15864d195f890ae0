export { applyDelta } from './apply-delta.js';
export type {
  ClientConstraint,
  ClientFeature,
  ClientFeatureDependency,
  ClientFeatures,
  ClientFeaturesDeltaEvent,
  ClientSegment,
  ClientStrategy,
  ClientStrategyVariant,
  ClientVariant,
} from './client-features.js';
export type { ContextPredicate } from './compile-constraint.js';
export type {
  CompiledConstraint,
  CompiledFeature,
  CompiledFeatureSet,
  CompiledSegment,
  CompiledStrategy,
  CompileOptions,
} from './compile-features.js';
export { compileFeatures } from './compile-features.js';
export type { EvaluationContext } from './evaluation-context.js';
export { type ExplainOptions, explainFeature, explainFeatures } from './explain-features.js';
export { murmurHash3, rolloutBucket } from './murmur-hash.js';
export type { CompiledVariant, VariantSelector } from './select-variant.js';
