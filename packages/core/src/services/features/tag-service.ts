import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type {
  bulkTagSchema,
  Tag,
  TagType,
  tagSchema,
  tagTypeSchema,
  updateTagTypeSchema,
} from '../../domain/tag.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { runnerOf } from '../service-runner.js';
import {
  addFeatureTag,
  bulkTagFeatures,
  createTag,
  createTagType,
  deleteTag,
  deleteTagType,
  featuresWithTag,
  getTag,
  getTagType,
  listFeatureTags,
  listTags,
  listTagTypes,
  removeFeatureTag,
  updateFeatureTags,
  updateTagType,
  validateTagType,
} from './tag-operations.js';

export { ensureTags } from './tag-operations.js';

/**
 * Tag types, tags, and the tags on features for in-process callers: typed wrappers over the
 * operations in `tag-operations.ts` (which HTTP serves too).
 */
export function createTagService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    /** Every tag type. */
    listTypes: async (caller: Caller): Promise<TagType[]> => (await run(listTagTypes, caller, {})).tagTypes,
    /** One tag type, or NOT_FOUND. */
    getType: async (caller: Caller, name: string): Promise<TagType> =>
      (await run(getTagType, caller, { name })).tagType,
    /** The parsed tag type when `createType` would accept it; VALIDATION otherwise, CONFLICT when taken. */
    validateType: (caller: Caller, input: z.input<typeof tagTypeSchema>) =>
      run(validateTagType, caller, input),
    /** Creates a tag type (tag-type-created). */
    createType: (caller: Caller, input: z.input<typeof tagTypeSchema>): Promise<TagType> =>
      run(createTagType, caller, input),
    /** Updates a tag type's description and icon (tag-type-updated). */
    updateType: (
      caller: Caller,
      name: string,
      input: z.input<typeof updateTagTypeSchema>,
    ): Promise<TagType> => run(updateTagType, caller, { ...input, name }),
    /** Deletes a tag type and its tags (tag-type-deleted). */
    deleteType: (caller: Caller, name: string): Promise<void> => run(deleteTagType, caller, { name }),
    /** Every tag, or those of one type. */
    listTags: async (caller: Caller, type?: string): Promise<Tag[]> =>
      (await run(listTags, caller, { type })).tags,
    /** Creates a tag of an existing type (tag-created). */
    createTag: (caller: Caller, input: z.input<typeof tagSchema>): Promise<{ tag: Tag }> =>
      run(createTag, caller, input),
    /** One tag, or NOT_FOUND. */
    getTag: (caller: Caller, type: string, value: string): Promise<{ tag: Tag }> =>
      run(getTag, caller, { type, value }),
    /** Deletes a tag and takes it off every feature (tag-deleted). */
    deleteTag: (caller: Caller, type: string, value: string): Promise<void> =>
      run(deleteTag, caller, { type, value }),
    /** Tags of one feature. */
    featureTags: async (caller: Caller, featureName: string): Promise<Tag[]> =>
      (await run(listFeatureTags, caller, { feature: featureName })).tags,
    /** Adds a tag to a feature, creating the tag if needed (feature-tagged, tag-created). */
    addFeatureTag: (caller: Caller, featureName: string, input: z.input<typeof tagSchema>): Promise<Tag> =>
      run(addFeatureTag, caller, { ...input, feature: featureName }),
    /** Removes a tag from a feature (feature-untagged). */
    removeFeatureTag: (caller: Caller, featureName: string, tag: Tag): Promise<void> =>
      run(removeFeatureTag, caller, { ...tag, feature: featureName }),
    /** Adds and removes tags on one feature; the feature's tags after. */
    updateFeatureTags: async (
      caller: Caller,
      featureName: string,
      input: z.input<typeof bulkTagSchema>['tags'],
    ): Promise<Tag[]> => (await run(updateFeatureTags, caller, { ...input, feature: featureName })).tags,
    /** Adds and removes tags on many features of a project at once. */
    bulkTag: (caller: Caller, project: string, input: z.input<typeof bulkTagSchema>): Promise<void> =>
      run(bulkTagFeatures, caller, { ...input, project }),
    /** Names of the features carrying a tag. */
    featuresWithTag: (caller: Caller, tag: Tag): Promise<string[]> => run(featuresWithTag, caller, tag),
  };
}

export type TagService = ReturnType<typeof createTagService>;
