import { z } from 'zod';
import { eventTypeSchema } from './event.js';

/** Query of `GET /api/admin/search/events`, as the reference names it. */
export const eventSearchQuerySchema = z.object({
  query: z.string().max(200, 'must be at most 200 characters').optional(),
  feature: z.string().optional(),
  project: z.string().optional(),
  type: z.string().optional(),
  createdBy: z.string().optional(),
  from: z.iso.date('must be a date such as 2026-01-31').optional(),
  to: z.iso.date('must be a date such as 2026-01-31').optional(),
  offset: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(10_000, 'must be at most 10000')
    .default(0),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000, 'must be at most 1000')
    .default(50),
});

/** One event of the log as answers show it; `data` and `preData` hold whatever the event recorded. */
export const eventViewSchema = z.strictObject({
  id: z.number(),
  type: eventTypeSchema,
  createdAt: z.string(),
  createdBy: z.string(),
  createdByUserId: z.number().nullable(),
  environment: z.string().nullable(),
  project: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.unknown(),
  preData: z.unknown(),
  tags: z.array(z.strictObject({ type: z.string(), value: z.string() })),
});

/** A page of the event search with the number of matches. */
export const eventSearchPageSchema = z.strictObject({ events: z.array(eventViewSchema), total: z.number() });

/** Everyone who has written events. */
export const eventCreatorListSchema = z.array(z.strictObject({ id: z.number(), name: z.string() }));
