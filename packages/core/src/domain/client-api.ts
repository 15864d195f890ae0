import { z } from 'zod';
import { weightTypeSchema } from './variant.js';

// Output schemas of the SDK-facing answers (client features, delta, frontend, OFREP), as SDKs get
// them: what only says "default" is left out (see `withoutDisabledStrategies`). The SDK routes keep
// hand-written fast handlers; these describe their answers in the OpenAPI document, and the HTTP
// test harness checks every answer against them.

/** A constraint as SDKs get it: `operator` a plain string so an unknown operator survives. */
export const clientConstraintSchema = z.strictObject({
  contextName: z.string(),
  operator: z.string(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
});

const clientPayloadSchema = z.strictObject({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string(),
});

export const clientStrategyVariantSchema = z.strictObject({
  name: z.string(),
  weight: z.number(),
  weightType: weightTypeSchema.optional(),
  stickiness: z.string().optional(),
  payload: clientPayloadSchema.optional(),
});

export const clientVariantSchema = clientStrategyVariantSchema.extend({
  overrides: z.array(z.strictObject({ contextName: z.string(), values: z.array(z.string()) })).optional(),
});

export const clientStrategySchema = z.strictObject({
  id: z.string().optional(),
  name: z.string(),
  title: z.string().optional(),
  parameters: z.record(z.string(), z.string()),
  constraints: z.array(clientConstraintSchema),
  segments: z.array(z.number()).optional(),
  variants: z.array(clientStrategyVariantSchema).optional(),
});

export const clientFeatureSchema = z.strictObject({
  name: z.string(),
  enabled: z.boolean(),
  project: z.string().optional(),
  type: z.string().optional(),
  description: z.string().nullable().optional(),
  stale: z.boolean().optional(),
  impressionData: z.boolean().optional(),
  strategies: z.array(clientStrategySchema),
  variants: z.array(clientVariantSchema).nullable().optional(),
  dependencies: z
    .array(
      z.strictObject({
        feature: z.string(),
        enabled: z.boolean().optional(),
        variants: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

export const clientSegmentSchema = z.strictObject({
  id: z.number(),
  name: z.string().optional(),
  constraints: z.array(clientConstraintSchema),
});

/** `GET /api/client/features`. */
export const clientFeaturesResponseSchema = z.strictObject({
  version: z.number(),
  features: z.array(clientFeatureSchema),
  segments: z.array(clientSegmentSchema),
  query: z.strictObject({
    project: z.array(z.string()).optional(),
    namePrefix: z.string().optional(),
    environment: z.string(),
  }),
  meta: z.strictObject({ revisionId: z.number(), etag: z.string(), queryHash: z.string() }),
});

/** One event of the delta API and of the streaming API's `unleash-updated` frames. */
export const clientDeltaEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('feature-updated'), eventId: z.number(), feature: clientFeatureSchema }),
  z.strictObject({
    type: z.literal('feature-removed'),
    eventId: z.number(),
    featureName: z.string(),
    project: z.string(),
  }),
  z.strictObject({ type: z.literal('segment-updated'), eventId: z.number(), segment: clientSegmentSchema }),
  z.strictObject({ type: z.literal('segment-removed'), eventId: z.number(), segmentId: z.number() }),
  z.strictObject({
    type: z.literal('hydration'),
    eventId: z.number(),
    features: z.array(clientFeatureSchema),
    segments: z.array(clientSegmentSchema),
  }),
]);

/** `GET /api/client/delta`. */
export const clientDeltaResponseSchema = z.strictObject({ events: z.array(clientDeltaEventSchema) });

/** One toggle of the frontend API: only features on for the context are listed. */
export const frontendToggleSchema = z.strictObject({
  name: z.string(),
  enabled: z.literal(true),
  variant: z.strictObject({
    name: z.string(),
    enabled: z.boolean(),
    payload: clientPayloadSchema.optional(),
    feature_enabled: z.boolean(),
    featureEnabled: z.boolean(),
  }),
  impressionData: z.boolean(),
});

/** `GET|POST /api/frontend`. */
export const frontendResponseSchema = z.strictObject({ toggles: z.array(frontendToggleSchema) });

const ofrepReasonSchema = z.enum(['STATIC', 'TARGETING_MATCH', 'SPLIT', 'DISABLED', 'DEFAULT']);

/** One flag evaluated for OFREP (`POST /ofrep/v1/evaluate/flags/{key}`). */
export const ofrepEvaluationSchema = z.strictObject({
  key: z.string(),
  value: z.union([
    z.boolean(),
    z.string(),
    z.number(),
    z.record(z.string(), z.unknown()),
    z.array(z.unknown()),
  ]),
  reason: ofrepReasonSchema,
  variant: z.string().optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});

/** A flag a bulk evaluation could not evaluate. */
export const ofrepFailureSchema = z.strictObject({
  key: z.string(),
  errorCode: z.string(),
  errorDetails: z.string(),
});

/** `POST /ofrep/v1/evaluate/flags`. */
export const ofrepBulkResponseSchema = z.strictObject({
  flags: z.array(z.union([ofrepEvaluationSchema, ofrepFailureSchema])),
  eventStreams: z.array(
    z.strictObject({
      type: z.literal('sse'),
      endpoint: z.strictObject({ requestUri: z.string() }),
      inactivityDelaySec: z.number(),
    }),
  ),
  metadata: z.strictObject({ revision: z.number() }),
});
