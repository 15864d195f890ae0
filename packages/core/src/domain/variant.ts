import { z } from 'zod';

/** SDKs parse a `json` payload and a `number` one as they are typed: a value they cannot read is refused. */
export const payloadSchema = z
  .object({
    type: z.enum(['json', 'csv', 'string', 'number']),
    value: z.string(),
  })
  .superRefine((payload, ctx) => {
    if (payload.type === 'json' && !isJson(payload.value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be valid JSON' });
    if (payload.type === 'number' && (payload.value.trim() === '' || !Number.isFinite(Number(payload.value))))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be a number' });
  });
export type Payload = z.infer<typeof payloadSchema>;

export const weightTypeSchema = z.enum(['variable', 'fix']);

export const overrideSchema = z.object({
  contextName: z.string().min(1),
  values: z.array(z.string()),
});
export type Override = z.infer<typeof overrideSchema>;

const weight = z
  .number()
  .int('must be an integer')
  .min(0, 'must be at least 0')
  .max(1000, 'must be at most 1000');

/** Feature-environment (and legacy feature-level) variant. */
export const variantSchema = z.object({
  name: z.string().min(1, 'must be a non-empty variant name'),
  weight,
  weightType: weightTypeSchema.default('variable'),
  stickiness: z.string().min(1).default('default'),
  payload: payloadSchema.optional(),
  overrides: z.array(overrideSchema).optional(),
});
export type Variant = z.infer<typeof variantSchema>;
export type VariantInput = z.input<typeof variantSchema>;

/** Variant attached to a strategy. */
export const strategyVariantSchema = z.object({
  name: z.string().min(1, 'must be a non-empty variant name'),
  weight,
  weightType: weightTypeSchema.default('variable'),
  stickiness: z.string().min(1).default('default'),
  payload: payloadSchema.optional(),
});
export type StrategyVariant = z.infer<typeof strategyVariantSchema>;

/** The answer for a context: a variant name, or `disabled`. */
export interface VariantResult {
  name: string;
  enabled: boolean;
  payload?: Payload;
  feature_enabled?: boolean;
  featureEnabled?: boolean;
}

export const DISABLED_VARIANT: Readonly<VariantResult> = Object.freeze({ name: 'disabled', enabled: false });

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
