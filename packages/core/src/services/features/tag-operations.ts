import { z } from 'zod';
import {
  bulkTagSchema,
  type Tag,
  type TagType,
  tagAnswerSchema,
  tagListSchema,
  tagSchema,
  tagTypeAnswerSchema,
  tagTypeListSchema,
  tagTypeSchema,
  tagTypeViewSchema,
  tagViewSchema,
  updateTagTypeSchema,
  validTagTypeSchema,
} from '../../domain/tag.js';
import { conflict, FlagstaffError, invalid, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso } from '../deps.js';
import { writeEvents, writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { requireFeature } from './require-feature.js';

const name = z.string().min(1);
const featureScope = (input: { feature?: string | undefined }) => ({ feature: input.feature });
const tagView = ({ type, value }: Tag): Tag => ({ type, value });
const typeView = ({ name, description, icon }: TagType): TagType => ({ name, description, icon });

/** Creates missing tags (tag-created each); the tag type must exist. Returns the tags created. */
export async function ensureTags(
  tx: Repositories,
  actor: Actor,
  at: string,
  tags: readonly Tag[],
): Promise<Tag[]> {
  const created: Tag[] = [];
  for (const tag of tags) {
    if (!(await tx.tags.getType(tag.type))) throw notFound('tag type', tag.type);
    if (await tx.tags.ensureTag(tag)) created.push(tag);
  }
  await writeEvents(
    tx,
    actor,
    at,
    created.map((t) => ({ type: 'tag-created', data: t })),
  );
  return created;
}

/** Adds and removes tags of one feature (feature-tagged / feature-untagged, tag-created for new tags). */
async function changeFeatureTags(
  tx: Repositories,
  actor: Actor,
  at: string,
  project: string | null,
  featureName: string,
  added: readonly Tag[],
  removed: readonly Tag[],
): Promise<void> {
  const feature = await requireFeature(tx, project, featureName);
  await ensureTags(tx, actor, at, added);
  const events = [];
  for (const tag of added)
    if (await tx.tags.addFeatureTag(featureName, tag))
      events.push({ type: 'feature-tagged' as const, data: tag });
  for (const tag of removed)
    if (await tx.tags.removeFeatureTag(featureName, tag))
      events.push({ type: 'feature-untagged' as const, preData: tag });
  if (events.length === 0) return;
  // The events carry the tags as this command leaves them.
  const tags = await tx.tags.listFeatureTags([featureName]);
  await writeFeatureEvents(tx, actor, at, { feature, tags }, events);
}

const featureTagViews = async (repos: ReadRepositories, feature: string): Promise<Tag[]> =>
  (await repos.tags.listFeatureTags([feature])).map(tagView);

/** Every tag type. */
export const listTagTypes = defineOperation({
  id: 'tags.types.list',
  summary: 'List tag types',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: tagTypeListSchema,
  run: async (_input, { repos }) => ({
    version: 1 as const,
    tagTypes: (await repos.tags.listTypes()).map(typeView),
  }),
});

/** One tag type, or NOT_FOUND. */
export const getTagType = defineOperation({
  id: 'tags.types.get',
  summary: 'Get a tag type',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ name }),
  output: tagTypeAnswerSchema,
  run: async ({ name }, { repos }) => {
    const type = await repos.tags.getType(name);
    if (!type) throw notFound('tag type', name);
    return { version: 1 as const, tagType: typeView(type) };
  },
});

const newTagType = (body: z.output<typeof tagTypeSchema>): TagType => ({
  name: body.name,
  description: body.description ?? null,
  icon: body.icon ?? null,
});

/** The parsed tag type when `tags.types.create` would accept it; CONFLICT when the name is taken. */
export const validateTagType = defineOperation({
  id: 'tags.types.validate',
  summary: 'Validate a tag type',
  kind: 'read',
  permission: 'NONE',
  input: tagTypeSchema,
  output: validTagTypeSchema,
  run: async (body, { repos }) => {
    if (await repos.tags.getType(body.name))
      throw conflict(`A tag type named "${body.name}" already exists.`, 'name');
    return { valid: true as const, tagType: newTagType(body) };
  },
});

/** Creates a tag type (tag-type-created). */
export const createTagType = defineOperation({
  id: 'tags.types.create',
  summary: 'Create a tag type',
  kind: 'write',
  permission: 'CREATE_TAG_TYPE',
  input: tagTypeSchema,
  output: tagTypeViewSchema,
  run: async (body, { repos, actor, deps }) => {
    if (await repos.tags.getType(body.name))
      throw conflict(`A tag type named "${body.name}" already exists.`, 'name');
    const type = newTagType(body);
    await repos.tags.insertType(type);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'tag-type-created', data: type }]);
    return type;
  },
});

/** Updates a tag type's description and icon (tag-type-updated); the name in the path wins. */
export const updateTagType = defineOperation({
  id: 'tags.types.update',
  summary: 'Update a tag type',
  kind: 'write',
  permission: 'UPDATE_TAG_TYPE',
  input: updateTagTypeSchema.extend({ name }),
  output: tagTypeViewSchema,
  run: async (body, { repos, actor, deps }) => {
    const before = await repos.tags.getType(body.name);
    if (!before) throw notFound('tag type', body.name);
    const after: TagType = {
      name: body.name,
      description: body.description === undefined ? before.description : body.description,
      icon: body.icon === undefined ? before.icon : body.icon,
    };
    await repos.tags.updateType(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'tag-type-updated', data: after, preData: before },
    ]);
    return after;
  },
});

/** Deletes a tag type and its tags (tag-type-deleted). */
export const deleteTagType = defineOperation({
  id: 'tags.types.delete',
  summary: 'Delete a tag type',
  kind: 'write',
  permission: 'DELETE_TAG_TYPE',
  input: z.object({ name }),
  output: z.void(),
  run: async ({ name }, { repos, actor, deps }) => {
    const before = await repos.tags.getType(name);
    if (!before) throw notFound('tag type', name);
    await repos.tags.deleteType(name);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'tag-type-deleted', preData: before }]);
  },
});

/** Every tag, or those of one type, ordered by type then value. */
export const listTags = defineOperation({
  id: 'tags.list',
  summary: 'List tags',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ type: z.string().optional() }),
  output: tagListSchema,
  run: async ({ type }, { repos }) => ({
    version: 1 as const,
    tags: (await repos.tags.listTags(type)).map(tagView),
  }),
});

/** Creates a tag of an existing type (tag-created); CONFLICT when it exists. */
export const createTag = defineOperation({
  id: 'tags.create',
  summary: 'Create a tag of an existing tag type',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  input: tagSchema,
  output: tagAnswerSchema,
  run: async (tag, { repos, actor, deps }) => {
    if (!(await repos.tags.getType(tag.type)))
      throw invalid('type', `"${tag.type}" is not a tag type; create it first.`);
    if (!(await repos.tags.ensureTag(tag)))
      throw new FlagstaffError('CONFLICT', `The tag ${tag.type}:${tag.value} already exists.`);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'tag-created', data: tag }]);
    return { tag: tagView(tag) };
  },
});

/** One tag, or NOT_FOUND. */
export const getTag = defineOperation({
  id: 'tags.get',
  summary: 'Get one tag',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ type: z.string(), value: z.string() }),
  output: tagAnswerSchema,
  run: async ({ type, value }, { repos }) => {
    const found = (await repos.tags.listTags(type)).find((t) => t.value === value);
    if (!found) throw notFound('tag', `${type}:${value}`);
    return { tag: tagView(found) };
  },
});

/** Deletes a tag and takes it off every feature (tag-deleted). */
export const deleteTag = defineOperation({
  id: 'tags.delete',
  summary: 'Delete a tag (and take it off every feature)',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  input: z.object({ type: z.string(), value: z.string() }),
  output: z.void(),
  run: async ({ type, value }, { repos, actor, deps }) => {
    const tag = { type, value };
    if (!(await repos.tags.deleteTag(tag))) throw notFound('tag', `${type}:${value}`);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'tag-deleted', preData: tag }]);
  },
});

/** Tags of one feature (archived ones too); a feature the caller may not see is not found. */
export const listFeatureTags = defineOperation({
  id: 'tags.feature.list',
  summary: 'List the tags of a feature',
  kind: 'read',
  permission: 'NONE',
  scope: featureScope,
  input: z.object({ feature: name }),
  output: tagListSchema,
  run: async ({ feature }, { repos }) => {
    await requireFeature(repos, null, feature, { archived: true });
    return { version: 1 as const, tags: await featureTagViews(repos, feature) };
  },
});

/** Adds a tag to a feature, creating the tag if needed (feature-tagged, tag-created). */
export const addFeatureTag = defineOperation({
  id: 'tags.feature.add',
  summary: 'Tag a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureScope,
  input: tagSchema.extend({ feature: name }),
  output: tagViewSchema,
  run: async ({ feature, ...tag }, { repos, actor, deps }) => {
    await changeFeatureTags(repos, actor, nowIso(deps), null, feature, [tag], []);
    return tagView(tag);
  },
});

/** Removes a tag from a feature (feature-untagged). */
export const removeFeatureTag = defineOperation({
  id: 'tags.feature.remove',
  summary: 'Remove a tag from a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureScope,
  input: z.object({ feature: name, type: z.string(), value: z.string() }),
  output: z.void(),
  run: async ({ feature, type, value }, { repos, actor, deps }) =>
    changeFeatureTags(repos, actor, nowIso(deps), null, feature, [], [{ type, value }]),
});

/** Adds and removes tags on one feature; answers with its tags as they are after. */
export const updateFeatureTags = defineOperation({
  id: 'tags.feature.update',
  summary: 'Add and remove tags of a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureScope,
  input: bulkTagSchema.shape.tags.extend({ feature: name }),
  output: tagListSchema,
  run: async ({ feature, addedTags, removedTags }, { repos, actor, deps }) => {
    await changeFeatureTags(repos, actor, nowIso(deps), null, feature, addedTags, removedTags);
    return { version: 1 as const, tags: await featureTagViews(repos, feature) };
  },
});

/** Adds and removes tags on many features of a project at once. */
export const bulkTagFeatures = defineOperation({
  id: 'tags.project.bulk',
  summary: 'Tag features of a project in bulk',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: (input) => ({ project: input.project }),
  input: bulkTagSchema.extend({ project: name }),
  output: z.void(),
  run: async ({ project, features, tags }, { repos, actor, deps }) => {
    await requireProject(repos, project);
    const at = nowIso(deps);
    for (const feature of features)
      await changeFeatureTags(repos, actor, at, project, feature, tags.addedTags, tags.removedTags);
  },
});

/** Names of the features carrying a tag. */
export const featuresWithTag = defineOperation({
  id: 'tags.features',
  summary: 'Features carrying a tag',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ type: z.string(), value: z.string() }),
  output: z.array(z.string()),
  run: ({ type, value }, { repos }) => repos.tags.featuresWithTag({ type, value }),
});
