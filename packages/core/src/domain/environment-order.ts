import { z } from 'zod';

/** Body of `PUT /api/admin/environments/sort-order`: `{ name: sortOrder }` for any of the environments. */
export const environmentSortOrderSchema = z.record(
  z.string(),
  z.number().int('must be a whole number').min(-1_000_000, 'is too small').max(1_000_000, 'is too large'),
);
