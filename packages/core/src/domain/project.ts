import { z } from 'zod';
import { compileNamingPattern, isValidNamingPattern, NAMING_PATTERN_RULE } from './naming-pattern.js';
import { type StrategyConfig, strategyConfigSchema } from './strategy.js';

export const projectModeSchema = z.enum(['open', 'protected', 'private']);
export type ProjectMode = z.infer<typeof projectModeSchema>;

export const featureNamingSchema = z
  .object({
    pattern: z.string().nullable().refine(isValidNamingPattern, NAMING_PATTERN_RULE),
    // The example is a feature name, so it has a feature name's length bound.
    example: z.string().max(100, 'must be at most 100 characters').nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .refine((n) => !n.example || !n.pattern || compileNamingPattern(n.pattern)?.test(n.example) !== false, {
    message: 'must match the pattern',
    path: ['example'],
  });
export type FeatureNaming = { pattern: string | null; example: string | null; description: string | null };

export const projectIdSchema = z
  .string()
  .min(1, 'must be a non-empty project id')
  .max(100)
  .regex(/^[a-zA-Z0-9_.-]+$/, 'may hold letters, digits and "_", ".", "-" only');

export const createProjectSchema = z.object({
  id: projectIdSchema,
  name: z.string().min(1, 'must be a non-empty name'),
  description: z.string().nullable().optional(),
  mode: projectModeSchema.default('open'),
  defaultStickiness: z.string().min(1).default('default'),
  featureLimit: z.number().int().positive().nullable().optional(),
  featureNaming: featureNamingSchema.optional(),
  environments: z.array(z.string()).optional(),
});
/** Update bodies carry no defaults: what is omitted stays as it is. */
export const updateProjectSchema = z.object({
  id: z.string().optional(),
  name: z.string().min(1, 'must be a non-empty name').optional(),
  description: z.string().nullable().optional(),
  mode: projectModeSchema.optional(),
  defaultStickiness: z.string().min(1).optional(),
  featureLimit: z.number().int().positive().nullable().optional(),
  featureNaming: featureNamingSchema.optional(),
});
/** PUT /projects/:p/settings: a project's collaboration and naming settings; what is omitted stays. */
export const projectSettingsSchema = updateProjectSchema.pick({
  mode: true,
  defaultStickiness: true,
  featureLimit: true,
  featureNaming: true,
});
export interface ProjectSettings {
  mode: ProjectMode;
  defaultStickiness: string;
  featureLimit: number | null;
  featureNaming: FeatureNaming;
}
/** The settings part of a project. */
export const settingsOf = (p: Project): ProjectSettings => ({
  mode: p.mode,
  defaultStickiness: p.defaultStickiness,
  featureLimit: p.featureLimit,
  featureNaming: p.featureNaming,
});
export type CreateProjectInput = z.input<typeof createProjectSchema>;
export type UpdateProjectInput = z.input<typeof updateProjectSchema>;

export interface Project {
  id: string;
  name: string;
  description: string | null;
  mode: ProjectMode;
  defaultStickiness: string;
  featureLimit: number | null;
  featureNaming: FeatureNaming;
  createdAt: string;
  updatedAt: string | null;
}

/** A feature naming rule as the API answers it. */
export const featureNamingViewSchema = z.strictObject({
  pattern: z.string().nullable(),
  example: z.string().nullable(),
  description: z.string().nullable(),
});
/** A project as the API answers it. */
export const projectSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mode: projectModeSchema,
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  featureNaming: featureNamingViewSchema,
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
});
/** GET /projects. */
export const projectListSchema = z.strictObject({ version: z.number(), projects: z.array(projectSchema) });
/** GET and PUT /projects/:p/settings. */
export const projectSettingsViewSchema = projectSchema.pick({
  mode: true,
  defaultStickiness: true,
  featureLimit: true,
  featureNaming: true,
});

/** An environment enabled in a project, with its default strategy. */
export interface ProjectEnvironmentRecord {
  projectId: string;
  environment: string;
  defaultStrategy: StrategyConfig | null;
}

export const projectDefaultStrategySchema = strategyConfigSchema;

export interface ProjectOverview {
  stats: {
    avgTimeToProdCurrentWindow: number;
    createdCurrentWindow: number;
    createdPastWindow: number;
    archivedCurrentWindow: number;
    archivedPastWindow: number;
    projectActivityCurrentWindow: number;
    projectActivityPastWindow: number;
    projectMembersAddedCurrentWindow: number;
  };
  version: number;
  name: string;
  description: string | null;
  defaultStickiness: string;
  mode: ProjectMode;
  featureLimit: number | null;
  featureNaming: FeatureNaming;
  members: number;
  health: number;
  environments: { environment: string; changeRequestsEnabled: boolean; defaultStrategy?: StrategyConfig }[];
  featureTypeCounts: { type: string; count: number }[];
  updatedAt: string | null;
  createdAt: string | null;
  favorite: boolean;
}

/** An item of GET /environments/project/:projectId. */
export interface ProjectEnvironmentView {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  projectApiTokenCount: number;
  projectEnabledToggleCount: number;
  /** Whether changes in the environment need change requests. */
  changeRequestsEnabled: boolean;
  defaultStrategy?: StrategyConfig;
}
