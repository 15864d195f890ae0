import type { Caller } from '../../auth/caller.js';
import { type Dependency, dependencyInputSchema } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { requireFeature, requireFeatureWithTags } from './require-feature.js';

/** Whether `from` reaches `to` by following parent links (so adding to → from would close a cycle). */
async function reaches(tx: Repositories, from: string, to: string): Promise<boolean> {
  const seen = new Set<string>();
  let frontier = [from];
  while (frontier.length) {
    if (frontier.includes(to)) return true;
    for (const f of frontier) seen.add(f);
    const next = (await tx.dependencies.list(frontier)).map((d) => d.feature).filter((p) => !seen.has(p));
    frontier = [...new Set(next)];
  }
  return false;
}

/**
 * Dependency commands inside a caller's transaction, after the policy was asked: the direct routes
 * and applying a change request run these same functions.
 */
export function createDependencyCommands(deps: ServiceDeps) {
  return {
    async add(
      tx: Repositories,
      caller: Caller,
      actor: Actor,
      project: string,
      child: string,
      dep: Dependency,
    ): Promise<Dependency> {
      const feature = await requireFeatureWithTags(tx, project, child);
      const parent = await tx.features.get(dep.feature);
      const parentProject = parent && (await tx.projects.get(parent.project));
      // A parent in a project the caller may not see answers exactly like one that does not exist.
      if (!parent || !parentProject || !(await deps.policy.canSeeProject(caller, parentProject)))
        throw notFound('feature', dep.feature);
      if (parent.archivedAt !== null)
        throw new FlagstaffError(
          'VALIDATION',
          `"feature" refers to no live feature named "${dep.feature}".`,
          { path: 'feature' },
        );
      if (parent.project !== project)
        throw new FlagstaffError(
          'VALIDATION',
          `"feature" "${dep.feature}" is in project "${parent.project}"; dependencies must stay within project "${project}".`,
          { path: 'feature' },
        );
      if (dep.feature === child || (await reaches(tx, dep.feature, child)))
        throw new FlagstaffError(
          'VALIDATION',
          `"feature" "${dep.feature}" would make a dependency cycle with "${child}".`,
          { path: 'feature' },
        );
      await tx.dependencies.upsert({ child, ...dep });
      await writeFeatureEvents(tx, actor, nowIso(deps), feature, [
        { type: 'feature-dependency-added', data: dep },
      ]);
      return dep;
    },

    async remove(tx: Repositories, actor: Actor, project: string, child: string, parent: string) {
      const feature = await requireFeatureWithTags(tx, project, child);
      if (!(await tx.dependencies.delete(child, parent)))
        throw notFound(`dependency of "${child}" on`, parent);
      await writeFeatureEvents(tx, actor, nowIso(deps), feature, [
        { type: 'feature-dependency-removed', data: { feature: parent } },
      ]);
    },
  };
}

/** Parent dependencies between features of a project. */
export function createDependencyService(deps: ServiceDeps) {
  const { store } = deps;
  const commands = createDependencyCommands(deps);
  return {
    /** Parents of a feature. */
    async list(caller: Caller, project: string, child: string): Promise<Dependency[]> {
      await deps.policy.require(caller, 'NONE', { project });
      await requireFeature(store, project, child);
      return (await store.dependencies.list([child])).map(({ feature, enabled, variants }) => ({
        feature,
        enabled,
        variants,
      }));
    },

    /** Whether any feature of the project has a dependency. */
    async projectHasDependencies(caller: Caller, project: string): Promise<boolean> {
      await deps.policy.require(caller, 'NONE', { project });
      await requireProject(store, project);
      const names = (await store.features.list({ project, archived: false })).map((f) => f.name);
      return names.length > 0 && (await store.dependencies.list(names)).length > 0;
    },

    /**
     * Adds or replaces a parent dependency (feature-dependency-added); refuses cycles. An unknown
     * parent, or one the caller may not see, is NOT_FOUND.
     */
    async add(caller: Caller, project: string, child: string, input: unknown): Promise<Dependency> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_DEPENDENCY', { project });
      const dep = parseWith(dependencyInputSchema, input);
      return inTransaction(deps, (tx) => commands.add(tx, caller, actor, project, child, dep));
    },

    /** Removes one parent dependency (feature-dependency-removed). */
    async remove(caller: Caller, project: string, child: string, parent: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_DEPENDENCY', { project });
      return inTransaction(deps, (tx) => commands.remove(tx, actor, project, child, parent));
    },

    /** Removes every parent dependency of a feature (feature-dependencies-removed). */
    async removeAll(caller: Caller, project: string, child: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_DEPENDENCY', { project });
      return inTransaction(deps, async (tx) => {
        const feature = await requireFeatureWithTags(tx, project, child);
        if ((await tx.dependencies.deleteAll(child)) > 0)
          await writeFeatureEvents(tx, actor, nowIso(deps), feature, [
            { type: 'feature-dependencies-removed' },
          ]);
      });
    },
  };
}

export type DependencyService = ReturnType<typeof createDependencyService>;
