import { z } from 'zod';
import { createFeatureSchema, LIFECYCLE_STAGES, updateFeatureSchema } from './feature.js';
import { dependencyViewSchema } from './feature-dependency.js';
import { featureLinkViewSchema } from './feature-link.js';
import { featureStrategySchema, patchDocumentSchema } from './strategy.js';
import { tagSchema } from './tag.js';
import { variantSchema } from './variant.js';

export const lifecycleStageSchema = z.enum(LIFECYCLE_STAGES);

/** Where a feature is in its lifecycle, since when. */
export const lifecycleSchema = z.strictObject({
  stage: lifecycleStageSchema,
  enteredStageAt: z.string(),
});

/** A feature in one environment as the API shows it. */
export const featureEnvironmentViewSchema = z.strictObject({
  name: z.string(),
  featureName: z.string(),
  environment: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  sortOrder: z.number(),
  variantCount: z.number(),
  strategies: z.array(featureStrategySchema),
  variants: z.array(variantSchema),
  lastSeenAt: z.string().nullable(),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
});

/** A feature as the API shows it; `links` only in the single-feature read. */
export const featureViewSchema = z.strictObject({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  archived: z.boolean(),
  project: z.string(),
  enabled: z.boolean(),
  stale: z.boolean(),
  favorite: z.boolean(),
  impressionData: z.boolean(),
  createdAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  environments: z.array(featureEnvironmentViewSchema),
  variants: z.array(variantSchema),
  /** Feature-level strategies of the legacy API: always empty (strategies live per environment). */
  strategies: z.array(z.unknown()),
  tags: z.array(tagSchema),
  children: z.array(z.string()),
  lifecycle: lifecycleSchema,
  dependencies: z.array(dependencyViewSchema),
  links: z.array(featureLinkViewSchema).optional(),
});

/** `{ version: 2, features }`: the feature lists (every project, one project, the archive). */
export const featureListSchema = z.strictObject({
  version: z.literal(2),
  features: z.array(featureViewSchema),
});

/** Which features archiving would leave with live children, and whether dependencies go. */
export const archiveCheckSchema = z.strictObject({
  parentsWithChildFeatures: z.array(z.string()),
  hasDeletedDependencies: z.boolean(),
});

/** One stage of a feature's lifecycle as the reference lists them. */
export const lifecycleStageViewSchema = z.strictObject({
  stage: lifecycleStageSchema,
  enteredStageAt: z.string(),
  status: z.string().optional(),
  statusValue: z.string().optional(),
});
export type LifecycleStageView = z.infer<typeof lifecycleStageViewSchema>;

/** How many features (archived included) are in each lifecycle stage. */
export const lifecycleCountSchema = z.strictObject({
  initial: z.number(),
  preLive: z.number(),
  live: z.number(),
  completed: z.number(),
  archived: z.number(),
});

/** One row of the feature search (the admin UI's feature table). */
export const featureSearchItemSchema = z.strictObject({
  name: z.string(),
  project: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  stale: z.boolean(),
  favorite: z.boolean(),
  impressionData: z.boolean(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  environments: z.array(
    z.strictObject({
      name: z.string(),
      enabled: z.boolean(),
      type: z.string(),
      sortOrder: z.number(),
      hasStrategies: z.boolean(),
      hasEnabledStrategies: z.boolean(),
      lastSeenAt: z.string().nullable(),
    }),
  ),
  tags: z.array(tagSchema),
  segments: z.array(z.string()),
  dependencyType: z.enum(['parent', 'child']).nullable(),
  lifecycle: lifecycleSchema,
});

/** A page of the feature search and how many features match in all. */
export const featureSearchResultSchema = z.strictObject({
  features: z.array(featureSearchItemSchema),
  total: z.number(),
});

// ---- inputs ----

const projectKey = z.string().min(1);
const featureKey = z.string().min(1);

/** A feature of a project, named by the path. */
export const featurePathSchema = z.object({ project: projectKey, feature: featureKey });

/** One environment of a feature. */
export const featureEnvironmentPathSchema = featurePathSchema.extend({ environment: z.string().min(1) });

/** Creating a feature in the path's project. */
export const createProjectFeatureSchema = createFeatureSchema.extend({ project: projectKey });

/**
 * PUT of a feature: the body's properties with the path's `projectId` and `featureName` (the body
 * may repeat `name` and `project`; they must match the path).
 */
export const updateProjectFeatureSchema = updateFeatureSchema.extend({
  projectId: projectKey,
  featureName: featureKey,
});

/** PATCH of a feature: JSON-patch operations on its metadata. */
export const patchFeatureSchema = featurePathSchema.extend({ operations: patchDocumentSchema });

/** Features of a project named in a body (`{ features: [...] }`), for the bulk operations. */
export const featureNamesSchema = z.object({
  project: projectKey,
  features: z.array(z.string().min(1, 'must hold non-empty feature names')),
});

/** Archived features, in the path's project or (null) wherever they are. */
export const archivedFeaturesSchema = z.object({
  project: projectKey.nullable(),
  features: z.array(z.string().min(1, 'must hold non-empty feature names')),
});

/** Marking features stale or not. */
export const staleFeaturesSchema = featureNamesSchema.extend({ stale: z.boolean() });

/** Marking a feature a favorite of the calling user, or not. */
export const favoriteFeatureSchema = featurePathSchema.extend({ favorite: z.boolean() });

/** Feature lists of a project, or of every project when none is given. */
export const featureListQuerySchema = z.object({ project: projectKey.optional() });

export const cloneFeatureSchema = z.object({
  name: z.string().min(1, 'must name the new feature'),
  /** Whether gradual rollouts group by the new name (so the clone's users are not the same). */
  replaceGroupId: z.boolean().default(true),
});

/** Cloning the path's feature. */
export const cloneProjectFeatureSchema = cloneFeatureSchema.extend(featurePathSchema.shape);

export const completeFeatureSchema = z.object({
  status: z.enum(['kept', 'discarded']),
  statusValue: z.string().max(255, 'must be at most 255 characters').optional(),
});

/** Completing the path's feature. */
export const completeProjectFeatureSchema = completeFeatureSchema.extend(featurePathSchema.shape);
