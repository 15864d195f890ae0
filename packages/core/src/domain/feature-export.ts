import { z } from 'zod';

/**
 * The export document (`POST /api/admin/features-batch/export`) and the import that takes it back
 * (`/features-batch/validate` and `/import`). Each part of the document is declared once, as an
 * export writes it: every property, nothing else (`z.strictObject`). An import reads the same parts
 * leniently: Unleash's exports carry properties we do not know (ignored), older ones leave some out
 * (optional), and any list may be missing.
 */

const name = z.string().min(1, 'must be a non-empty name');

/** Body of the export: an environment and which features (names, tag or project). */
export const exportQuerySchema = z
  .object({
    environment: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .min(1, 'must be a non-empty environment name'),
    features: z.array(z.string().min(1, 'must be a non-empty feature name')).optional(),
    tag: z.string().min(1, 'must be a non-empty tag ("type:value" or a simple tag value)').optional(),
    project: z.string().min(1, 'must be a non-empty project id').optional(),
    downloadFile: z.boolean().optional(),
  })
  .refine((q) => q.features !== undefined || q.tag !== undefined || q.project !== undefined, {
    message: 'is required (or "tag" or "project")',
    path: ['features'],
  });
export type ExportQuery = z.input<typeof exportQuerySchema>;

// The parts, as an export writes them.

const constraint = z.strictObject({
  contextName: name,
  operator: z.string(),
  caseInsensitive: z.boolean(),
  inverted: z.boolean(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
const payload = z.strictObject({ type: z.string(), value: z.string() });
const override = z.strictObject({ contextName: name, values: z.array(z.string()) });
const strategyVariant = z.strictObject({
  name,
  weight: z.number(),
  weightType: z.enum(['variable', 'fix']),
  stickiness: z.string(),
  payload: payload.optional(),
});
const variant = strategyVariant.extend({ overrides: z.array(override).optional() });

const feature = z.strictObject({
  name,
  type: z.string(),
  description: z.string().nullable(),
  project: z.string(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  archived: z.boolean(),
});
const featureStrategy = z.strictObject({
  id: z.string(),
  featureName: name,
  name,
  title: z.string().nullable(),
  disabled: z.boolean(),
  sortOrder: z.number(),
  parameters: z.record(z.string(), z.string()),
  constraints: z.array(constraint),
  segments: z.array(z.number().int()),
  variants: z.array(strategyVariant),
});
const featureEnvironment = z.strictObject({
  name: z.string(),
  featureName: name,
  environment: z.string(),
  enabled: z.boolean(),
  variants: z.array(variant),
});
const legalValue = z.strictObject({ value: z.string(), description: z.string().optional() });
const contextField = z.strictObject({
  name,
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(legalValue),
  /** The project of a project-scoped field; absent for fields of the whole instance. */
  project: z.string().optional(),
});
const featureTag = z.strictObject({ featureName: name, tagType: name, tagValue: name });
const segment = z.strictObject({ id: z.number().int(), name });
const tagType = z.strictObject({ name, description: z.string().nullable(), icon: z.string().nullable() });
const parent = z.strictObject({ feature: name, enabled: z.boolean(), variants: z.array(z.string()) });
const dependency = z.strictObject({ feature: name, dependencies: z.array(parent) });

/** What an export answers: the features of one environment with everything they use. */
export const exportDocumentSchema = z.strictObject({
  features: z.array(feature),
  featureStrategies: z.array(featureStrategy),
  featureEnvironments: z.array(featureEnvironment),
  contextFields: z.array(contextField),
  featureTags: z.array(featureTag),
  segments: z.array(segment),
  tagTypes: z.array(tagType),
  dependencies: z.array(dependency),
});
export type ExportDocument = z.output<typeof exportDocumentSchema>;

// The same parts as an import reads them.

const readConstraint = constraint.partial({ caseInsensitive: true, inverted: true }).loose();
const readPayload = payload.loose().nullish();
const readStrategyVariant = strategyVariant
  .partial({ weightType: true, stickiness: true })
  .loose()
  .extend({ payload: readPayload });
const readVariant = readStrategyVariant.extend({ overrides: z.array(override.loose()).optional() });

/**
 * The `data` of an import: an export document, ours or Unleash's. Unknown properties are ignored,
 * every list may be left out.
 */
export const importDataSchema = z.looseObject({
  features: z
    .array(
      feature
        .partial({
          type: true,
          description: true,
          project: true,
          stale: true,
          impressionData: true,
          archived: true,
        })
        .loose(),
    )
    .default([]),
  featureStrategies: z
    .array(
      featureStrategy
        .omit({ id: true })
        .partial({ title: true, sortOrder: true })
        .loose()
        .extend({
          // Unleash writes `disabled: null` and numeric parameters (a rollout of 50).
          disabled: z.boolean().nullish(),
          parameters: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
          constraints: z.array(readConstraint).default([]),
          segments: featureStrategy.shape.segments.default([]),
          variants: z.array(readVariant).default([]),
        }),
    )
    .default([]),
  featureEnvironments: z
    .array(
      featureEnvironment
        .pick({ featureName: true, enabled: true })
        .loose()
        .extend({ variants: z.array(readVariant).default([]) }),
    )
    .default([]),
  contextFields: z
    .array(
      contextField
        .pick({ name: true, description: true, stickiness: true })
        .partial({ description: true, stickiness: true })
        .loose()
        .extend({
          legalValues: z.array(legalValue.loose().extend({ description: z.string().nullish() })).default([]),
        }),
    )
    .default([]),
  featureTags: z.array(featureTag.loose()).default([]),
  segments: z.array(segment.loose()).default([]),
  tagTypes: z.array(tagType.partial({ description: true, icon: true }).loose()).default([]),
  dependencies: z
    .array(
      dependency
        .loose()
        .extend({ dependencies: z.array(parent.partial({ enabled: true, variants: true }).loose()) }),
    )
    .default([]),
});

/** The body of `/features-batch/validate` and `/import` (Unleash's): where to, and the document. */
export const importBodySchema = z.object({
  project: name,
  environment: name,
  data: importDataSchema,
});
export type ImportBody = z.output<typeof importBodySchema>;
export type ImportBodyInput = z.input<typeof importBodySchema>;
export type ImportData = ImportBody['data'];

/** One problem the validation found, with the items it concerns (Unleash's shape). */
const importIssueSchema = z.strictObject({ message: z.string(), affectedItems: z.array(z.string()) });
export type ImportIssue = z.output<typeof importIssueSchema>;

/** What `validate` answers: problems that block the import, warnings, and missing permissions. */
export const importValidationSchema = z.strictObject({
  errors: z.array(importIssueSchema),
  warnings: z.array(importIssueSchema),
  permissions: z.array(importIssueSchema),
});
export type ImportValidation = z.output<typeof importValidationSchema>;

/** What an import did: how many features it brought (the HTTP answer has no body). */
export const importResultSchema = z.strictObject({ imported: z.number().int() });
