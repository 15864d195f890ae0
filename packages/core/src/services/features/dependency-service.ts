import type { Caller } from '../../auth/caller.js';
import type { Dependency, DependencyInput } from '../../domain/feature.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  addDependency,
  listDependencies,
  listParentVariants,
  projectHasDependencies,
  removeAllDependencies,
  removeDependency,
} from './dependency-operations.js';

export { createDependencyCommands } from './dependency-operations.js';

/** Parent dependencies between features of a project: typed wrappers over `dependency-operations.ts`. */
export function createDependencyService(run: OperationRunner) {
  return {
    /** Parents of a feature. */
    list: (caller: Caller, project: string, child: string): Promise<Dependency[]> =>
      run(listDependencies, caller, { project, child }),
    /** Whether any feature of the project has a dependency. */
    projectHasDependencies: (caller: Caller, project: string): Promise<boolean> =>
      run(projectHasDependencies, caller, { project }),
    /**
     * Adds or replaces a parent dependency (feature-dependency-added); refuses cycles. An unknown
     * parent, or one the caller may not see, is NOT_FOUND.
     */
    add: (caller: Caller, project: string, child: string, input: DependencyInput): Promise<Dependency> =>
      run(addDependency, caller, { ...input, project, child }),
    /** Removes one parent dependency (feature-dependency-removed). */
    remove: (caller: Caller, project: string, child: string, parent: string): Promise<void> =>
      run(removeDependency, caller, { project, child, parent }),
    /** The variant names a child's dependency on `parent` may require. */
    parentVariants: (caller: Caller, project: string, parent: string): Promise<string[]> =>
      run(listParentVariants, caller, { project, feature: parent }),
    /** Removes every parent dependency of a feature (feature-dependencies-removed). */
    removeAll: (caller: Caller, project: string, child: string): Promise<void> =>
      run(removeAllDependencies, caller, { project, child }),
  };
}

export type DependencyService = ReturnType<typeof createDependencyService>;
