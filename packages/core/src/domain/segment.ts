import { z } from 'zod';
import { constraintSchema } from './constraint.js';

export const segmentInputSchema = z.object({
  name: z.string().min(1, 'must be a non-empty segment name'),
  description: z.string().nullable().optional(),
  project: z.string().nullable().optional(),
  constraints: z.array(constraintSchema).default([]),
});
export type SegmentInput = z.input<typeof segmentInputSchema>;

export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: z.infer<typeof constraintSchema>[];
  createdAt: string;
  createdBy: string | null;
}

/** A strategy that uses a segment (GET /segments/:id/strategies). */
export interface SegmentStrategyReference {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
  strategyName: string;
}

/** A segment as the API answers it. */
export const segmentSchema = z.strictObject({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  constraints: z.array(constraintSchema),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});

/** GET /segments. */
export const segmentListSchema = z.strictObject({ segments: z.array(segmentSchema) });

const segmentStrategyFields = {
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
};
/** GET /segments/:id/strategies: strategies using the segment, and those open change requests would add. */
export const segmentStrategiesSchema = z.strictObject({
  strategies: z.array(z.strictObject({ id: z.string(), ...segmentStrategyFields })),
  changeRequestStrategies: z.array(z.strictObject({ id: z.string().optional(), ...segmentStrategyFields })),
});
