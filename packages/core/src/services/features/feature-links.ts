import type { Caller } from '../../auth/caller.js';
import type { FeatureLinkInput, FeatureLinkView } from '../../domain/feature-link.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { addFeatureLink, deleteFeatureLink, updateFeatureLink } from './feature-link-operations.js';

/** Links on features (`…/features/:feature/link`): typed wrappers over `feature-link-operations.ts`. */
export function createFeatureLinkService(run: OperationRunner) {
  return {
    /** Adds a link (feature-link-added). */
    add: (caller: Caller, project: string, name: string, input: FeatureLinkInput): Promise<FeatureLinkView> =>
      run(addFeatureLink, caller, { ...input, project, feature: name }),
    /** Changes a link's URL and title (feature-link-updated). */
    update: (
      caller: Caller,
      project: string,
      name: string,
      id: string,
      input: FeatureLinkInput,
    ): Promise<FeatureLinkView> => run(updateFeatureLink, caller, { ...input, project, feature: name, id }),
    /** Removes a link (feature-link-removed). */
    delete: (caller: Caller, project: string, name: string, id: string): Promise<void> =>
      run(deleteFeatureLink, caller, { project, feature: name, id }),
  };
}

export type FeatureLinkService = ReturnType<typeof createFeatureLinkService>;
