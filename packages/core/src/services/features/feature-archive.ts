import type { Caller } from '../../auth/caller.js';
import type { FeatureRecord, FeatureView } from '../../domain/feature.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
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
 * Archives features inside a caller's transaction, after the policy was asked (the archive route
 * and applying a change request's `archiveFeature`).
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

/** The archive: archiving features, reviving them, and deleting them for good. */
export function createArchiveCommands(
  deps: ServiceDeps,
  view: (repos: ReadRepositories, feature: FeatureRecord) => Promise<FeatureView>,
) {
  const { store } = deps;

  /** The permission in the project, or without one, in each archived feature's own project. */
  async function requireForArchived(
    caller: Caller,
    permission: 'UPDATE_FEATURE' | 'DELETE_FEATURE',
    project: string | null,
    names: readonly string[],
  ): Promise<void> {
    const scopes = project !== null ? [{ project }] : names.map((feature) => ({ feature }));
    for (const scope of scopes) await deps.policy.require(caller, permission, scope);
  }

  return {
    /**
     * Moves features to the archive (feature-archived each); their dependencies on parents go too.
     * Refused when a parent's children would stay live (`requireNoLiveChildrenLeft`).
     */
    async archive(caller: Caller, project: string, names: readonly string[]): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_FEATURE', { project });
      return inTransaction(deps, (tx) => archiveFeatures(deps, tx, actor, project, names));
    },

    /** Which of the features would orphan children left outside the archive operation. */
    async validateArchive(caller: Caller, project: string, names: readonly string[]) {
      await deps.policy.require(caller, 'DELETE_FEATURE', { project });
      await requireProject(store, project);
      const set = new Set(names);
      const children = await store.dependencies.listByParents(names);
      const parents = new Set(children.filter((d) => !set.has(d.child)).map((d) => d.feature));
      const own = await store.dependencies.list(names);
      return {
        parentsWithChildFeatures: [...parents].sort(),
        hasDeletedDependencies: own.length > 0 || children.length > 0,
      };
    },

    /** Brings archived features back (feature-revived each); they return stale-free and initial. */
    async revive(caller: Caller, project: string | null, names: readonly string[]): Promise<void> {
      await requireForArchived(caller, 'UPDATE_FEATURE', project, names);
      const actor = caller.actor;
      return inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        for (const name of names) {
          const { feature: before, tags } = await requireFeatureWithTags(tx, project, name, {
            archived: true,
          });
          if (before.archivedAt === null)
            throw new FlagstaffError('VALIDATION', `Feature "${name}" is not archived.`, {
              path: 'features',
            });
          const after: FeatureRecord = {
            ...before,
            archivedAt: null,
            lifecycle: { stage: 'initial', enteredStageAt: at },
          };
          await tx.features.update(after);
          await writeFeatureEvents(tx, actor, at, { feature: after, tags }, [{ type: 'feature-revived' }]);
        }
      });
    },

    /** Deletes archived features for good (feature-deleted, preData: the feature). */
    async deleteArchived(caller: Caller, project: string | null, names: readonly string[]): Promise<void> {
      await requireForArchived(caller, 'DELETE_FEATURE', project, names);
      const actor = caller.actor;
      return inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        for (const name of names) {
          const found = await requireFeatureWithTags(tx, project, name, { archived: true });
          const before = found.feature;
          if (before.archivedAt === null)
            throw new FlagstaffError(
              'CONFLICT',
              `Feature "${name}" must be archived before it can be deleted.`,
            );
          const snapshot = await view(tx, before);
          await writeFeatureEvents(tx, actor, at, found, [{ type: 'feature-deleted', preData: snapshot }]);
          await tx.features.delete(name);
        }
      });
    },
  };
}
