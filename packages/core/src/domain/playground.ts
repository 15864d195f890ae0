import { z } from 'zod';
import type { ConstraintWithResult } from './constraint.js';
import type { Variant, VariantResult } from './variant.js';

/** An optional context field; `null` counts as missing, as SDKs treat it. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

export const playgroundContextSchema = z.looseObject({
  appName: z.string().min(1, 'must be a non-empty application name'),
  currentTime: z.iso
    .datetime({ offset: true })
    .nullish()
    .transform((value) => value ?? undefined),
  environment: optionalText,
  // Properties whose value is null are left out: the context does not have them.
  properties: z
    .record(z.string(), z.string().nullable())
    .nullish()
    .transform((properties) =>
      properties
        ? Object.fromEntries(
            Object.entries(properties).filter((entry): entry is [string, string] => entry[1] !== null),
          )
        : undefined,
    ),
  remoteAddress: optionalText,
  sessionId: optionalText,
  userId: optionalText,
});
export type PlaygroundContext = z.infer<typeof playgroundContextSchema>;

const WHOLE = 'must be a whole number';

/** The most features one page of the playground may ask for. */
export const PLAYGROUND_MAX_LIMIT = 1000;

export const playgroundRequestSchema = z.object({
  environment: z.string().min(1, 'must be a non-empty environment name'),
  projects: z.union([z.array(z.string()), z.literal('*')]).default('*'),
  context: playgroundContextSchema,
  // Flagstaff's own, for large configurations: without them, every feature of the projects.
  /** Only features whose name contains this text (ASCII letters in either case). */
  query: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
  /** Features to skip, in the answer's order, before the page. */
  offset: z.number({ error: WHOLE }).int(WHOLE).min(0, 'must be 0 or more').optional(),
  /** At most this many features; the answer then also says how many match in `total`. */
  limit: z
    .number({ error: WHOLE })
    .int(WHOLE)
    .min(1, 'must be at least 1')
    .max(PLAYGROUND_MAX_LIMIT, `must be at most ${PLAYGROUND_MAX_LIMIT}`)
    .optional(),
});
export type PlaygroundRequest = z.infer<typeof playgroundRequestSchema>;

/** POST /api/admin/playground/advanced: several environments, and contexts with listed values. */
export const advancedPlaygroundRequestSchema = z.object({
  environments: z
    .array(z.string().min(1, 'must be a non-empty environment name'))
    .min(1, 'must name at least one environment')
    .max(20, 'must name at most 20 environments'),
  projects: z.union([z.array(z.string()), z.literal('*')]).default('*'),
  context: playgroundContextSchema,
});
export type AdvancedPlaygroundRequest = z.infer<typeof advancedPlaygroundRequestSchema>;

export type StrategyEvaluationResult =
  | { evaluationStatus: 'complete'; enabled: boolean }
  | { evaluationStatus: 'incomplete' | 'unevaluated'; enabled: false | 'unknown' };

export interface PlaygroundSegment {
  id: number;
  name: string;
  result: boolean;
  constraints: ConstraintWithResult[];
}

export interface PlaygroundStrategy {
  name: string;
  title?: string;
  id: string;
  result: StrategyEvaluationResult & { variant?: VariantResult | null };
  disabled: boolean | null;
  segments: PlaygroundSegment[];
  constraints: ConstraintWithResult[];
  parameters: Record<string, string>;
  links: { edit: string };
}

export interface PlaygroundFeature {
  name: string;
  projectId: string;
  strategies: { result: boolean | 'unknown'; data: PlaygroundStrategy[] };
  hasUnsatisfiedDependency: boolean;
  isEnabledInCurrentEnvironment: boolean;
  isEnabled: boolean;
  variant: VariantResult | null;
  variants: Variant[];
}

export interface PlaygroundResponse {
  input: PlaygroundRequest;
  features: PlaygroundFeature[];
  /** How many features match before paging: present when the request has `query`, `offset` or `limit`. */
  total?: number;
}
