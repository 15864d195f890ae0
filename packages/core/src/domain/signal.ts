import { z } from 'zod';

export const signalEndpointNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9-]+$/, 'may hold lower-case letters, digits and "-" only');

export const signalEndpointInputSchema = z.object({
  name: signalEndpointNameSchema,
  description: z.string().nullable().optional(),
  enabled: z.boolean().default(true),
});
export const signalEndpointTokenInputSchema = z.object({
  name: z.string().min(1, 'must be a non-empty token name'),
});

const timestamp = z.iso.datetime({ offset: true });

export const signalEndpointSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: timestamp,
  createdByUserId: z.number().int().nullable(),
});
export type SignalEndpoint = z.infer<typeof signalEndpointSchema>;

/** A token of a signal endpoint as the API shows it: never its secret, nor the secret's hash. */
export const signalEndpointTokenViewSchema = z.strictObject({
  id: z.number().int(),
  signalEndpointId: z.number().int(),
  name: z.string(),
  createdAt: timestamp,
  createdByUserId: z.number().int().nullable(),
});
export type SignalEndpointTokenView = z.infer<typeof signalEndpointTokenViewSchema>;
export type SignalEndpointToken = SignalEndpointTokenView & { tokenHash: string };

/** An endpoint with its tokens. */
export const signalEndpointViewSchema = signalEndpointSchema.extend({
  tokens: z.array(signalEndpointTokenViewSchema),
});
export type SignalEndpointView = z.infer<typeof signalEndpointViewSchema>;

export const signalSchema = z.strictObject({
  id: z.number().int(),
  source: z.literal('signal-endpoint'),
  sourceId: z.number().int(),
  payload: z.unknown(),
  createdAt: timestamp,
  tokenName: z.string().nullable(),
});
export type Signal = z.infer<typeof signalSchema>;

const actionSchema = z.object({
  action: z.enum([
    'TOGGLE_FEATURE_ON',
    'TOGGLE_FEATURE_OFF',
    'DISABLE_FEATURE_STRATEGY',
    'ENABLE_FEATURE_STRATEGY',
  ]),
  sortOrder: z.number().int().default(0),
  executionParams: z.record(z.string(), z.string()),
});

export const actionSetInputSchema = z.object({
  name: z.string().min(1, 'must be a non-empty name'),
  description: z.string().nullable().optional(),
  enabled: z.boolean().default(true),
  project: z.string().min(1),
  actorId: z.number().int().optional(),
  match: z.object({
    source: z.literal('signal-endpoint'),
    sourceId: z.number().int(),
    payload: z.record(z.string(), z.unknown()).default({}),
  }),
  actions: z.array(actionSchema).min(1, 'must hold at least one action'),
});
export type ActionSetInput = z.input<typeof actionSetInputSchema>;

export const actionSetSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  project: z.string(),
  actorId: z.number().int().nullable(),
  match: z.strictObject({
    source: z.literal('signal-endpoint'),
    sourceId: z.number().int(),
    payload: z.record(z.string(), z.unknown()),
  }),
  actions: z.array(
    z.strictObject({
      action: z.string(),
      sortOrder: z.number().int(),
      executionParams: z.record(z.string(), z.string()),
    }),
  ),
  createdAt: timestamp,
});
export type ActionSet = z.infer<typeof actionSetSchema>;
