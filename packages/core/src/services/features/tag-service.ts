import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import {
  bulkTagSchema,
  type Tag,
  type TagType,
  tagSchema,
  tagTypeSchema,
  updateTagTypeSchema,
} from '../../domain/tag.js';
import { conflict, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents, writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { requireFeature } from './require-feature.js';

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

/** Tag types and the tags on features. */
export function createTagService(deps: ServiceDeps) {
  const { store } = deps;

  async function changeFeatureTags(
    tx: Repositories,
    actor: Actor,
    at: string,
    project: string | null,
    featureName: string,
    added: readonly Tag[],
    removed: readonly Tag[],
  ) {
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

  return {
    async listTypes(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      return store.tags.listTypes();
    },
    async getType(caller: Caller, name: string): Promise<TagType> {
      await deps.policy.require(caller, 'NONE', {});
      const type = await store.tags.getType(name);
      if (!type) throw notFound('tag type', name);
      return type;
    },
    /**
     * POST /tag-types/validate: the parsed tag type when `createType` would accept it; VALIDATION
     * otherwise, CONFLICT when the name is taken.
     */
    async validateType(caller: Caller, input: unknown): Promise<{ valid: true; tagType: TagType }> {
      await deps.policy.require(caller, 'NONE', {});
      const body = parseWith(tagTypeSchema, input);
      if (await store.tags.getType(body.name))
        throw conflict(`A tag type named "${body.name}" already exists.`, 'name');
      return {
        valid: true,
        tagType: { name: body.name, description: body.description ?? null, icon: body.icon ?? null },
      };
    },
    /** Creates a tag type (tag-type-created). */
    async createType(caller: Caller, input: unknown): Promise<TagType> {
      const actor = await deps.policy.permit(caller, 'CREATE_TAG_TYPE', {});
      const body = parseWith(tagTypeSchema, input);
      return inTransaction(deps, async (tx) => {
        if (await tx.tags.getType(body.name))
          throw conflict(`A tag type named "${body.name}" already exists.`, 'name');
        const type: TagType = {
          name: body.name,
          description: body.description ?? null,
          icon: body.icon ?? null,
        };
        await tx.tags.insertType(type);
        await writeEvents(tx, actor, nowIso(deps), [{ type: 'tag-type-created', data: type }]);
        return type;
      });
    },
    /** Updates a tag type's description and icon (tag-type-updated). */
    async updateType(caller: Caller, name: string, input: unknown): Promise<TagType> {
      const actor = await deps.policy.permit(caller, 'UPDATE_TAG_TYPE', {});
      const body = parseWith(updateTagTypeSchema, input);
      return inTransaction(deps, async (tx) => {
        const before = await tx.tags.getType(name);
        if (!before) throw notFound('tag type', name);
        const after: TagType = {
          name,
          description: body.description === undefined ? before.description : body.description,
          icon: body.icon === undefined ? before.icon : body.icon,
        };
        await tx.tags.updateType(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'tag-type-updated', data: after, preData: before },
        ]);
        return after;
      });
    },
    /** Deletes a tag type and its tags (tag-type-deleted). */
    async deleteType(caller: Caller, name: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_TAG_TYPE', {});
      return inTransaction(deps, async (tx) => {
        const before = await tx.tags.getType(name);
        if (!before) throw notFound('tag type', name);
        await tx.tags.deleteType(name);
        await writeEvents(tx, actor, nowIso(deps), [{ type: 'tag-type-deleted', preData: before }]);
      });
    },
    async listTags(caller: Caller, type?: string) {
      await deps.policy.require(caller, 'NONE', {});
      return store.tags.listTags(type);
    },

    /** Tags of one feature. */
    async featureTags(caller: Caller, featureName: string): Promise<Tag[]> {
      await deps.policy.require(caller, 'NONE', { feature: featureName });
      await requireFeature(store, null, featureName, { archived: true });
      return (await store.tags.listFeatureTags([featureName])).map(({ type, value }) => ({ type, value }));
    },
    /** Adds a tag to a feature, creating the tag if needed (feature-tagged, tag-created). */
    async addFeatureTag(caller: Caller, featureName: string, input: unknown): Promise<Tag> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { feature: featureName });
      const tag = parseWith(tagSchema, input);
      return inTransaction(deps, async (tx) => {
        await changeFeatureTags(tx, actor, nowIso(deps), null, featureName, [tag], []);
        return tag;
      });
    },
    /** Removes a tag from a feature (feature-untagged). */
    async removeFeatureTag(caller: Caller, featureName: string, tag: Tag): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { feature: featureName });
      return inTransaction(deps, (tx) =>
        changeFeatureTags(tx, actor, nowIso(deps), null, featureName, [], [tag]),
      );
    },
    /** Adds and removes tags on one feature (PUT /features/:f/tags). */
    async updateFeatureTags(caller: Caller, featureName: string, input: unknown): Promise<Tag[]> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { feature: featureName });
      const body = parseWith(bulkTagSchema.shape.tags, input);
      return inTransaction(deps, async (tx) => {
        await changeFeatureTags(tx, actor, nowIso(deps), null, featureName, body.addedTags, body.removedTags);
        return (await tx.tags.listFeatureTags([featureName])).map(({ type, value }) => ({ type, value }));
      });
    },
    /** PUT /projects/:p/tags: adds and removes tags on many features of a project at once. */
    async bulkTag(caller: Caller, project: string, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      const body = parseWith(bulkTagSchema, input);
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, project);
        const at = nowIso(deps);
        for (const name of body.features)
          await changeFeatureTags(tx, actor, at, project, name, body.tags.addedTags, body.tags.removedTags);
      });
    },
    /** Features carrying a tag. */
    async featuresWithTag(caller: Caller, tag: Tag) {
      await deps.policy.require(caller, 'NONE', {});
      return store.tags.featuresWithTag(tag);
    },
  };
}

export type TagService = ReturnType<typeof createTagService>;
