import { z } from 'zod';
import { FEATURE_TYPES, type LifecycleStage } from './feature-kinds.js';
import type { FeatureStrategy } from './strategy.js';
import type { Tag } from './tag.js';
import type { Variant } from './variant.js';

export { FEATURE_TYPES, LIFECYCLE_STAGES, type LifecycleStage } from './feature-kinds.js';

export const featureTypeSchema = z.enum(FEATURE_TYPES);

/** Unleash's feature naming rule: URL-friendly characters only. */
export const featureNameSchema = z
  .string()
  .min(1, 'must be a non-empty feature name')
  .max(100, 'must be at most 100 characters')
  .regex(/^[a-zA-Z0-9~_.-]+$/, 'may hold letters, digits and "~", "_", ".", "-" only');

export const createFeatureSchema = z.object({
  name: featureNameSchema,
  type: featureTypeSchema.default('release'),
  description: z.string().max(2000).nullable().optional(),
  impressionData: z.boolean().default(false),
  tags: z.array(z.object({ type: z.string().default('simple'), value: z.string() })).optional(),
});
export type CreateFeatureInput = z.input<typeof createFeatureSchema>;

/** PUT /projects/:p/features/:f — only the given properties change. */
export const updateFeatureSchema = z.object({
  name: z.string().optional(),
  project: z.string().optional(),
  description: z.string().max(2000).nullable().optional(),
  type: featureTypeSchema.optional(),
  stale: z.boolean().optional(),
  archived: z.boolean().optional(),
  impressionData: z.boolean().optional(),
});
export type UpdateFeatureInput = z.input<typeof updateFeatureSchema>;

export const dependencyInputSchema = z
  .object({
    feature: z.string().min(1, 'must name the parent feature'),
    enabled: z.boolean().default(true),
    variants: z.array(z.string()).default([]),
  })
  .refine((d) => d.enabled || d.variants.length === 0, {
    message: 'may list variants only when "enabled" is true',
    path: ['variants'],
  });
export type Dependency = z.infer<typeof dependencyInputSchema>;
export type DependencyInput = z.input<typeof dependencyInputSchema>;

export interface Lifecycle {
  stage: LifecycleStage;
  enteredStageAt: string;
}

/**
 * The stage a feature reaches when it is used (turned on, or first reported by SDKs) in an
 * environment of this type: pre-live outside production, live in production; later stages stay.
 */
export function stageAfterUse(lifecycle: Lifecycle, environmentType: string, at: string): Lifecycle {
  if (environmentType === 'production' && (lifecycle.stage === 'initial' || lifecycle.stage === 'pre-live'))
    return { stage: 'live', enteredStageAt: at };
  if (lifecycle.stage === 'initial') return { stage: 'pre-live', enteredStageAt: at };
  return lifecycle;
}

/** A feature as stored. */
export interface FeatureRecord {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
  createdAt: string;
  archivedAt: string | null;
  createdByUserId: number | null;
  lifecycle: Lifecycle;
}

/** Per-environment state of a feature, as stored. */
export interface FeatureEnvironmentRecord {
  featureName: string;
  environment: string;
  enabled: boolean;
  variants: Variant[];
  lastSeenAt: string | null;
}

/** A feature environment as the API returns it. */
export interface FeatureEnvironmentView {
  name: string;
  featureName: string;
  environment: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  variantCount: number;
  strategies: FeatureStrategy[];
  variants: Variant[];
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

/** A feature as the API returns it. */
export interface FeatureView {
  name: string;
  type: string;
  description: string | null;
  archived: boolean;
  project: string;
  enabled: boolean;
  stale: boolean;
  favorite: boolean;
  impressionData: boolean;
  createdAt: string | null;
  archivedAt: string | null;
  lastSeenAt: string | null;
  environments: FeatureEnvironmentView[];
  variants: Variant[];
  strategies: unknown[];
  tags: Tag[];
  children: string[];
  lifecycle: Lifecycle;
  dependencies: Dependency[];
  /** Links on the feature (tickets, dashboards); in the single-feature read. */
  links?: { id: string; url: string; title: string | null }[];
}
