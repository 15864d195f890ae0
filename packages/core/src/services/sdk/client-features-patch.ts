import { CONFIGURATION_EVENT_TYPES, FEATURE_CONFIGURATION_EVENT_TYPES } from '../../domain/event.js';
import type { ClientFeature, ClientFeatures } from '../../evaluation/client-features.js';
import type { ReadRepositories } from '../../ports/store.js';
import { loadNamedClientFeatures } from './client-features-snapshot.js';

/** A payload patched from the one at `since`: each re-read feature, null when it is gone. */
export interface PatchedPayload {
  payload: ClientFeatures;
  since: number;
  features: ReadonlyMap<string, ClientFeature | null>;
}

/** More changes than this since the last snapshot are read in full: one query set beats many. */
const MOST_PATCHED_EVENTS = 100;

/**
 * The client payload at `revision`, from the one at `since` and the features the configuration
 * events in between name, re-read alone; null when those events call for a full reload. A change
 * to one of 1,000 features then reads one feature instead of all of them, so it reaches streams
 * sooner. The result equals a full load (the contract test in client-features-patch.test.ts).
 */
export async function patchedPayload(
  repos: ReadRepositories,
  previous: ClientFeatures,
  since: number,
  revision: number,
  environment: string,
): Promise<PatchedPayload | null> {
  const events = await repos.events.search({
    afterId: since,
    maxId: revision,
    ascending: true,
    limit: MOST_PATCHED_EVENTS + 1,
  });
  if (events.length > MOST_PATCHED_EVENTS) return null;
  const changed = new Set<string>();
  for (const event of events) {
    if (!CONFIGURATION_EVENT_TYPES.has(event.type)) continue;
    if (!FEATURE_CONFIGURATION_EVENT_TYPES.has(event.type) || !event.featureName) return null;
    changed.add(event.featureName);
  }
  // A child lists its parents: re-read the children of a changed feature too, so whatever a store
  // does to dependencies when a parent changes (is archived, deleted) is seen.
  for (const feature of previous.features)
    if (feature.dependencies?.some((d) => changed.has(d.feature))) changed.add(feature.name);
  const fresh = await loadNamedClientFeatures(repos, environment, [...changed]);
  const features = new Map<string, ClientFeature | null>([...changed].map((name) => [name, null]));
  for (const feature of fresh) features.set(feature.name, feature);
  return { payload: { ...previous, features: merged(previous.features, changed, fresh) }, since, features };
}

/** The previous features with the changed ones replaced, dropped or added, kept in name order. */
function merged(
  previous: readonly ClientFeature[],
  changed: ReadonlySet<string>,
  fresh: readonly ClientFeature[],
): ClientFeature[] {
  const freshByName = new Map(fresh.map((f) => [f.name, f]));
  const out: ClientFeature[] = [];
  for (const feature of previous) {
    if (!changed.has(feature.name)) out.push(feature);
    else {
      const replacement = freshByName.get(feature.name);
      if (replacement) out.push(replacement);
      freshByName.delete(feature.name);
    }
  }
  if (freshByName.size === 0) return out;
  // New (or revived) features go where an ordered read would put them.
  for (const feature of freshByName.values()) {
    let at = out.length;
    while (at > 0 && out[at - 1]!.name > feature.name) at--;
    out.splice(at, 0, feature);
  }
  return out;
}
