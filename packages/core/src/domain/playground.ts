import { z } from 'zod';
import type { ConstraintWithResult } from './constraint.js';
import type { Variant, VariantResult } from './variant.js';

export const playgroundContextSchema = z.looseObject({
  appName: z.string().min(1, 'must be a non-empty application name'),
  currentTime: z.iso.datetime({ offset: true }).optional(),
  environment: z.string().optional(),
  properties: z.record(z.string(), z.string()).optional(),
  remoteAddress: z.string().optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
});
export type PlaygroundContext = z.infer<typeof playgroundContextSchema>;

export const playgroundRequestSchema = z.object({
  environment: z.string().min(1, 'must be a non-empty environment name'),
  projects: z.union([z.array(z.string()), z.literal('*')]).default('*'),
  context: playgroundContextSchema,
});
export type PlaygroundRequest = z.infer<typeof playgroundRequestSchema>;

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
}
