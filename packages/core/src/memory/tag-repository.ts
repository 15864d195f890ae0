import type { FeatureTag, Tag } from '../domain/tag.js';
import { conflict, notFound } from '../errors.js';
import type { TagRepository } from '../ports/feature-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, keyOf, type Sync, sorted } from './support.js';

export const tagOrder = by<Tag>(
  (a, b) => compare(a.type, b.type),
  (a, b) => compare(a.value, b.value),
);

const featureTagOrder = by<FeatureTag>((a, b) => compare(a.featureName, b.featureName), tagOrder);

const sameTag = (a: Tag, b: Tag): boolean => a.type === b.type && a.value === b.value;

/** Tag types, tags and feature tags over a session. */
export function createTagRepository(s: Session): Sync<TagRepository> {
  const types = s.table('tagTypes');
  const tags = s.table('tags');
  const featureTags = s.table('featureTags');
  return {
    listTypes: () => sorted(types.rows(), (a, b) => compare(a.name, b.name)).map(copy),
    getType: (name) => copy(types.get(name) ?? null),
    insertType(type) {
      if (types.has(type.name)) throw conflict(`A tag type named "${type.name}" already exists.`);
      types.set(type.name, copy(type));
    },
    updateType(type) {
      if (!types.has(type.name)) return false;
      types.set(type.name, copy(type));
      return true;
    },
    deleteType(name) {
      if (!types.delete(name)) return false;
      tags.deleteWhere((tag) => tag.type === name);
      featureTags.deleteWhere((tag) => tag.type === name);
      return true;
    },
    listTags: (type) =>
      sorted(
        tags.rows().filter((tag) => type === undefined || tag.type === type),
        tagOrder,
      ).map(copy),
    ensureTag(tag) {
      const key = keyOf(tag.type, tag.value);
      if (tags.has(key)) return false;
      tags.set(key, { type: tag.type, value: tag.value });
      return true;
    },
    deleteTag(tag) {
      if (!tags.delete(keyOf(tag.type, tag.value))) return false;
      featureTags.deleteWhere((featureTag) => sameTag(featureTag, tag));
      return true;
    },
    listFeatureTags(featureNames) {
      const wanted = featureNames ? new Set(featureNames) : null;
      return sorted(
        featureTags.rows().filter((tag) => wanted === null || wanted.has(tag.featureName)),
        featureTagOrder,
      ).map(copy);
    },
    addFeatureTag(featureName, tag) {
      if (!tags.has(keyOf(tag.type, tag.value))) throw notFound('tag', `${tag.type}:${tag.value}`);
      const key = keyOf(featureName, tag.type, tag.value);
      if (featureTags.has(key)) return false;
      featureTags.set(key, { featureName, type: tag.type, value: tag.value });
      return true;
    },
    removeFeatureTag: (featureName, tag) => featureTags.delete(keyOf(featureName, tag.type, tag.value)),
    featuresWithTag: (tag) =>
      featureTags
        .rows()
        .filter((featureTag) => sameTag(featureTag, tag))
        .map((featureTag) => featureTag.featureName)
        .sort(compare),
  };
}
