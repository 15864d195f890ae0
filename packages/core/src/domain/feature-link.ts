import { z } from 'zod';

/** A link on a feature (a ticket, a dashboard, the pull request), as the reference has them. */
export interface FeatureLink {
  id: string;
  featureName: string;
  url: string;
  title: string | null;
  createdAt: string;
}

export const featureLinkInputSchema = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2000, 'must be at most 2000 characters'),
  title: z.string().max(200, 'must be at most 200 characters').nullish(),
});
