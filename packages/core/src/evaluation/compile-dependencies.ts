import type { ClientFeatureDependency } from './client-features.js';
import { ALWAYS, allOf, type ContextPredicate, NEVER } from './compile-constraint.js';
import type { CompiledFeature } from './compile-features.js';
import { resolveVariant } from './resolve-variant.js';

function compileDependency(
  dependency: ClientFeatureDependency,
  features: ReadonlyMap<string, CompiledFeature>,
): ContextPredicate {
  if (!dependency || typeof dependency !== 'object') return NEVER;
  const parent = features.get(dependency.feature);
  // Only one level of dependencies is evaluated: a parent that has parents of its own never satisfies.
  if (!parent || (Array.isArray(parent.source.dependencies) && parent.source.dependencies.length > 0))
    return NEVER;
  // `parent.match` is read per call: parents are linked before every matcher has been built.
  if (dependency.enabled === false) return (context) => parent.match(context) === null;
  if (Array.isArray(dependency.variants) && dependency.variants.length > 0) {
    const names = new Set(dependency.variants);
    return (context) => {
      const variant = resolveVariant(parent, context);
      return variant.feature_enabled === true && names.has(variant.name);
    };
  }
  return (context) => parent.match(context) !== null;
}

/** Compiles a feature's parent dependencies into one test; every parent must be satisfied. */
export function compileDependencies(
  dependencies: readonly ClientFeatureDependency[] | undefined,
  features: ReadonlyMap<string, CompiledFeature>,
): ContextPredicate {
  const list: readonly ClientFeatureDependency[] = Array.isArray(dependencies) ? dependencies : [];
  if (list.length === 0) return ALWAYS;
  return allOf(list.map((dependency) => compileDependency(dependency, features)));
}
