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
export type FeatureLinkInput = z.input<typeof featureLinkInputSchema>;

/** A link as the API shows it. */
export const featureLinkViewSchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  title: z.string().nullable(),
});
export type FeatureLinkView = z.infer<typeof featureLinkViewSchema>;

/** The feature a link route is on. */
export const featureLinkPathSchema = z.object({ project: z.string().min(1), feature: z.string().min(1) });

/** Adding a link: the path's feature, the body's URL and title. */
export const addFeatureLinkSchema = featureLinkInputSchema.extend(featureLinkPathSchema.shape);

/** Changing a link: the path's feature and link id, the body's URL and title. */
export const updateFeatureLinkSchema = addFeatureLinkSchema.extend({ id: z.string().min(1) });

/** Removing a link. */
export const deleteFeatureLinkSchema = featureLinkPathSchema.extend({ id: z.string().min(1) });
