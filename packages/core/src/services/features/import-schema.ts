import { z } from 'zod';

const name = z.string().min(1, 'must be a non-empty name');

const constraint = z.looseObject({
  contextName: name,
  operator: z.string(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
});

const variant = z.looseObject({
  name,
  weight: z.number(),
  weightType: z.enum(['variable', 'fix']).optional(),
  stickiness: z.string().optional(),
  payload: z.looseObject({ type: z.string(), value: z.string() }).nullish(),
  overrides: z.array(z.looseObject({ contextName: name, values: z.array(z.string()) })).optional(),
});

/**
 * The `data` of an import: an export result (ours or Unleash's; unknown properties are ignored).
 * Every list may be left out.
 */
export const importDataSchema = z.looseObject({
  features: z
    .array(
      z.looseObject({
        name,
        type: z.string().optional(),
        description: z.string().nullish(),
        project: z.string().optional(),
        stale: z.boolean().optional(),
        impressionData: z.boolean().optional(),
        archived: z.boolean().optional(),
      }),
    )
    .default([]),
  featureStrategies: z
    .array(
      z.looseObject({
        featureName: name,
        name,
        title: z.string().nullish(),
        disabled: z.boolean().nullish(),
        sortOrder: z.number().optional(),
        parameters: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
        constraints: z.array(constraint).default([]),
        segments: z.array(z.number().int()).default([]),
        variants: z.array(variant).default([]),
      }),
    )
    .default([]),
  featureEnvironments: z
    .array(
      z.looseObject({
        featureName: name,
        enabled: z.boolean(),
        variants: z.array(variant).default([]),
      }),
    )
    .default([]),
  contextFields: z
    .array(
      z.looseObject({
        name,
        description: z.string().nullish(),
        stickiness: z.boolean().optional(),
        legalValues: z
          .array(z.looseObject({ value: z.string(), description: z.string().nullish() }))
          .default([]),
      }),
    )
    .default([]),
  featureTags: z.array(z.looseObject({ featureName: name, tagType: name, tagValue: name })).default([]),
  segments: z.array(z.looseObject({ id: z.number().int(), name })).default([]),
  tagTypes: z
    .array(z.looseObject({ name, description: z.string().nullish(), icon: z.string().nullish() }))
    .default([]),
  dependencies: z
    .array(
      z.looseObject({
        feature: name,
        dependencies: z.array(
          z.looseObject({
            feature: name,
            enabled: z.boolean().optional(),
            variants: z.array(z.string()).optional(),
          }),
        ),
      }),
    )
    .default([]),
});

/** POST /api/admin/features-batch/validate and /import (Unleash's body). */
export const importBodySchema = z.object({
  project: name,
  environment: name,
  data: importDataSchema,
});

export type ImportBody = z.output<typeof importBodySchema>;
export type ImportData = ImportBody['data'];

/** One problem the validation found, with the items it concerns (Unleash's shape). */
export interface ImportIssue {
  message: string;
  affectedItems: string[];
}

/** What `validate` answers: problems that block the import, warnings, and missing permissions. */
export interface ImportValidation {
  errors: ImportIssue[];
  warnings: ImportIssue[];
  permissions: ImportIssue[];
}
