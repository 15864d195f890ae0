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

export interface SignalEndpoint {
  id: number;
  name: string;
  description: string | null;
  enabled: boolean;
  createdAt: string;
  createdByUserId: number | null;
}

export interface SignalEndpointToken {
  id: number;
  signalEndpointId: number;
  name: string;
  tokenHash: string;
  createdAt: string;
  createdByUserId: number | null;
}

export interface Signal {
  id: number;
  source: 'signal-endpoint';
  sourceId: number;
  payload: unknown;
  createdAt: string;
  tokenName: string | null;
}

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

export interface ActionSet {
  id: number;
  name: string;
  description: string | null;
  enabled: boolean;
  project: string;
  actorId: number | null;
  match: { source: 'signal-endpoint'; sourceId: number; payload: Record<string, unknown> };
  actions: { action: string; sortOrder: number; executionParams: Record<string, string> }[];
  createdAt: string;
}
