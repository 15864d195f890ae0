import { asciiLower } from '../../domain/feature-search.js';
import type { ClientFeature } from '../../evaluation/client-features.js';
import type { CompiledFeature } from '../../evaluation/compile-features.js';
import type { EnvironmentSnapshot } from './evaluator-cache.js';

// What the playground evaluates, taken from the snapshot's payload rather than from its compiled
// evaluator: compiling every feature for a playground request would make the snapshot hold that
// evaluator (closures, contexts and compiled strategies, ~50 MB at 50,000 features) until the next
// revision, for a request no SDK made. The selected features are compiled a chunk at a time instead,
// each chunk with the parents its features depend on, and let go once explained.

/** The payload's project of a feature, as the compiled evaluator reads it. */
const projectOf = (f: ClientFeature): string =>
  typeof f.project === 'string' && f.project !== '' ? f.project : 'default';

/**
 * The payload's features the options select, in payload order (a repeated name keeps its first
 * position, as in the compiled set, and its last definition).
 */
export function selectSources(
  snapshot: EnvironmentSnapshot,
  options: { projects: readonly string[] | '*'; query?: string | undefined },
): ClientFeature[] {
  const projects = options.projects === '*' ? null : new Set(options.projects);
  const query = options.query ? asciiLower(options.query) : '';
  const at = new Map<string, number>();
  const out: ClientFeature[] = [];
  for (const f of snapshot.payload.features) {
    if (!f || typeof f !== 'object' || typeof f.name !== 'string') continue;
    const seen = at.get(f.name);
    if (seen !== undefined) {
      // The last definition decides whether it is selected, in its first position.
      out[seen] = f;
      continue;
    }
    at.set(f.name, out.length);
    out.push(f);
  }
  return out.filter(
    (f) =>
      (projects === null || projects.has(projectOf(f))) &&
      (query === '' || asciiLower(f.name).includes(query)),
  );
}

const hasParents = (f: ClientFeature): boolean => Array.isArray(f.dependencies) && f.dependencies.length > 0;

/**
 * Compiles `features` (from `selectSources`) for one request: with the snapshot's evaluator when
 * something else already compiled it, otherwise on their own with the parents they depend on (one
 * level of dependencies is evaluated, so their parents' parents need not be compiled).
 */
export function compileSelected(
  snapshot: EnvironmentSnapshot,
  features: readonly ClientFeature[],
  parentsOf: () => ReadonlyMap<string, ClientFeature>,
): CompiledFeature[] {
  const ready = snapshot.compiledIfReady;
  const set = ready ?? compileWithParents(snapshot, features, parentsOf);
  return features.map((f) => {
    const compiled = set.get(f.name);
    if (!compiled) throw new Error(`the playground lost the feature ${f.name} while compiling it`);
    return compiled;
  });
}

function compileWithParents(
  snapshot: EnvironmentSnapshot,
  features: readonly ClientFeature[],
  parentsOf: () => ReadonlyMap<string, ClientFeature>,
) {
  const names = new Set(features.map((f) => f.name));
  const parents: ClientFeature[] = [];
  if (features.some(hasParents)) {
    const byName = parentsOf();
    for (const f of features) {
      for (const dependency of f.dependencies ?? []) {
        const name = dependency && typeof dependency === 'object' ? dependency.feature : undefined;
        const parent = name === undefined ? undefined : byName.get(name);
        if (parent === undefined || names.has(parent.name)) continue;
        names.add(parent.name);
        parents.push(parent);
      }
    }
  }
  // Parents first: a chunk's own definition of a name is the one kept.
  return snapshot.compile({
    ...snapshot.payload,
    features: [...parents, ...features],
  });
}

/** The payload's features by name (the last definition of a repeated one), built on first need. */
export function payloadByName(snapshot: EnvironmentSnapshot): () => ReadonlyMap<string, ClientFeature> {
  let byName: Map<string, ClientFeature> | null = null;
  return () => {
    if (byName === null) {
      byName = new Map();
      for (const f of snapshot.payload.features)
        if (f && typeof f === 'object' && typeof f.name === 'string') byName.set(f.name, f);
    }
    return byName;
  };
}
