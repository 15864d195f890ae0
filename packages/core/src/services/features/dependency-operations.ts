import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { Dependency } from '../../domain/feature.js';
import {
  addDependencySchema,
  dependencyPathSchema,
  dependencyViewSchema,
  parentVariantsSchema,
  removeDependencySchema,
} from '../../domain/feature-dependency.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { buildFeatureViews } from './feature-view.js';
import { requireFeature, requireFeatureWithTags } from './require-feature.js';

const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

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
 * Dependency commands inside a caller's transaction, after the policy was asked: the operations
 * below and applying a change request run these same functions.
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

/** The parents of a feature. */
export const listDependencies = defineOperation({
  id: 'dependencies.list',
  summary: 'List the parent dependencies of a feature',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: dependencyPathSchema,
  output: z.array(dependencyViewSchema),
  run: async ({ project, child }, { repos }) => {
    await requireFeature(repos, project, child);
    return (await repos.dependencies.list([child])).map(({ feature, enabled, variants }) => ({
      feature,
      enabled,
      variants,
    }));
  },
});

/** Whether any live feature of the project has a dependency. */
export const projectHasDependencies = defineOperation({
  id: 'dependencies.projectHas',
  summary: 'Whether any feature of a project has dependencies',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project: z.string().min(1) }),
  output: z.boolean(),
  run: async ({ project }, { repos }) => {
    await requireProject(repos, project);
    const names = (await repos.features.list({ project, archived: false })).map((f) => f.name);
    return names.length > 0 && (await repos.dependencies.list(names)).length > 0;
  },
});

/**
 * Adds or replaces a parent dependency (feature-dependency-added); refuses cycles. An unknown
 * parent, or one the caller may not see, is NOT_FOUND.
 */
export const addDependency = defineOperation({
  id: 'dependencies.add',
  summary: 'Add a parent dependency',
  kind: 'write',
  permission: 'UPDATE_FEATURE_DEPENDENCY',
  scope: projectScope,
  input: addDependencySchema,
  output: dependencyViewSchema,
  run: ({ project, child, ...dep }, { deps, repos, caller, actor }) =>
    createDependencyCommands(deps).add(repos, caller, actor, project, child, dep),
});

/** Removes one parent dependency (feature-dependency-removed). */
export const removeDependency = defineOperation({
  id: 'dependencies.remove',
  summary: 'Remove a parent dependency',
  kind: 'write',
  permission: 'UPDATE_FEATURE_DEPENDENCY',
  scope: projectScope,
  input: removeDependencySchema,
  output: z.void(),
  run: ({ project, child, parent }, { deps, repos, actor }) =>
    createDependencyCommands(deps).remove(repos, actor, project, child, parent),
});

/** Removes every parent dependency of a feature (feature-dependencies-removed when there were any). */
export const removeAllDependencies = defineOperation({
  id: 'dependencies.removeAll',
  summary: 'Remove every parent dependency of a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE_DEPENDENCY',
  scope: projectScope,
  input: dependencyPathSchema,
  output: z.void(),
  run: async ({ project, child }, { deps, repos, actor }) => {
    const feature = await requireFeatureWithTags(repos, project, child);
    if ((await repos.dependencies.deleteAll(child)) > 0)
      await writeFeatureEvents(repos, actor, nowIso(deps), feature, [
        { type: 'feature-dependencies-removed' },
      ]);
  },
});

/** The variant names a child's dependency on this parent may require: its environments' and strategies'. */
export const listParentVariants = defineOperation({
  id: 'dependencies.parentVariants',
  summary: 'The variant names a child feature may depend on',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project: z.string().min(1), feature: z.string().min(1) }),
  output: parentVariantsSchema,
  run: async ({ project, feature }, { repos }) => {
    const [view] = await buildFeatureViews(repos, [await requireFeature(repos, project, feature)], {});
    const names = new Set<string>();
    for (const env of view?.environments ?? []) {
      for (const v of env.variants) names.add(v.name);
      for (const s of env.strategies) for (const v of s.variants ?? []) names.add(v.name);
    }
    return [...names].sort();
  },
});

/** Every dependency operation, for route tables and tools. */
export const dependencyOperations = [
  listDependencies,
  projectHasDependencies,
  addDependency,
  removeDependency,
  removeAllDependencies,
  listParentVariants,
] as const;
