import { z } from 'zod';

/** `{ features: [...] }`: the body of the bulk operations on features. */
export const featureNamesBody = z.object({
  features: z.array(z.string().min(1, 'must hold non-empty feature names')),
});

/** `{ features, stale }`: POST /projects/:p/stale. */
export const staleBody = featureNamesBody.extend({ stale: z.boolean() });
