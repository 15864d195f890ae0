import type { Caller } from '../../auth/caller.js';
import type { FeatureRecord, FeatureView } from '../../domain/feature.js';
import { FlagstaffError } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { requireFeatureWithTags } from './require-feature.js';

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
    /** Moves features to the archive (feature-archived each); their dependencies on parents go too. */
    async archive(caller: Caller, project: string, names: readonly string[]): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_FEATURE', { project });
      return inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        for (const name of names) {
          const { feature: before, tags } = await requireFeatureWithTags(tx, project, name);
          const after: FeatureRecord = {
            ...before,
            archivedAt: at,
            lifecycle: { stage: 'archived', enteredStageAt: at },
          };
          await tx.features.update(after);
          const removed = await tx.dependencies.deleteAll(name);
          await writeFeatureEvents(tx, actor, at, { feature: after, tags }, [
            { type: 'feature-archived' },
            ...(removed > 0 ? [{ type: 'feature-dependencies-removed' as const }] : []),
          ]);
        }
      });
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
