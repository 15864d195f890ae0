import type { FeatureRecord } from '../../domain/feature.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireFeatureWithTags } from './require-feature.js';

/**
 * The one archive rule, for every path that archives (DELETE, bulk archive, PUT/PATCH `archived`):
 * a parent whose children stay live is refused, unless those children are archived in the same
 * call, as in the reference; an archived feature's own parent links go with it.
 */
export async function requireNoLiveChildrenLeft(tx: Repositories, names: readonly string[]): Promise<void> {
  const archiving = new Set(names);
  const left = new Map<string, string[]>();
  for (const { feature: parent, child } of await tx.dependencies.listByParents(names)) {
    if (archiving.has(child) || (await tx.features.get(child))?.archivedAt !== null) continue;
    left.set(parent, [...(left.get(parent) ?? []), child]);
  }
  const [parent, children] = [...left].sort(([a], [b]) => a.localeCompare(b))[0] ?? [];
  if (parent === undefined || children === undefined) return;
  throw new FlagstaffError(
    'VALIDATION',
    `Feature "${parent}" cannot be archived: its child feature${children.length > 1 ? 's' : ''} ${children
      .sort()
      .map((c) => `"${c}"`)
      .join(', ')} would stay live. Archive them in the same call, or remove their dependencies first.`,
    { path: 'features', parentsWithChildFeatures: [...left.keys()].sort() },
  );
}

/** Archives one feature's record and drops its parent links; the events that say so. */
export async function archiveRecord(
  tx: Repositories,
  feature: FeatureRecord,
  at: string,
): Promise<{
  after: FeatureRecord;
  events: { type: 'feature-archived' | 'feature-dependencies-removed' }[];
}> {
  const after: FeatureRecord = {
    ...feature,
    archivedAt: feature.archivedAt ?? at,
    lifecycle: { stage: 'archived', enteredStageAt: feature.archivedAt ?? at },
  };
  await tx.features.update(after);
  const removed = await tx.dependencies.deleteAll(feature.name);
  return {
    after,
    events: [
      { type: 'feature-archived' },
      ...(removed > 0 ? [{ type: 'feature-dependencies-removed' as const }] : []),
    ],
  };
}

/**
 * The one way features are archived, inside a caller's transaction after the policy was asked: the
 * archive operation (DELETE, bulk archive, the facade) and applying a change request's
 * `archiveFeature` both run it; PUT/PATCH `archived` applies the same rule and `archiveRecord`.
 */
export async function archiveFeatures(
  deps: ServiceDeps,
  tx: Repositories,
  actor: Actor,
  project: string,
  names: readonly string[],
): Promise<void> {
  const at = nowIso(deps);
  const found = [];
  for (const name of names) found.push(await requireFeatureWithTags(tx, project, name));
  await requireNoLiveChildrenLeft(tx, names);
  for (const { feature, tags } of found) {
    const { after, events } = await archiveRecord(tx, feature, at);
    await writeFeatureEvents(tx, actor, at, { feature: after, tags }, events);
  }
}
