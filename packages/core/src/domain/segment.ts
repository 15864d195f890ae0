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
