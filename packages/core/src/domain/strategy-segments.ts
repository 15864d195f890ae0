import { z } from 'zod';
import { constraintSchema } from './constraint.js';

/** Body of `POST /api/admin/segments/strategies`: the segments one strategy uses from now on. */
export const strategySegmentsSchema = z.object({
  projectId: z.string().min(1, 'is required'),
  strategyId: z.string().min(1, 'is required'),
  environmentId: z.string().min(1, 'is required'),
  segmentIds: z.array(z.number().int('must hold segment ids')),
});

/** The segments a strategy uses, as `GET /api/admin/segments/strategies/:strategyId` answers. */
export const strategySegmentListSchema = z.strictObject({
  segments: z.array(
    z.strictObject({
      id: z.number(),
      name: z.string(),
      description: z.string().nullable(),
      project: z.string().nullable(),
      constraints: z.array(constraintSchema),
      createdAt: z.string(),
      createdBy: z.string().nullable(),
    }),
  ),
});
