import { z } from 'zod';

const tagName = z.string().min(2, 'must be 2 to 50 characters').max(50, 'must be 2 to 50 characters');
export const tagSchema = z.object({ type: tagName.default('simple'), value: tagName });
export type Tag = z.infer<typeof tagSchema>;

export const tagTypeSchema = z.object({
  name: z
    .string()
    .min(2)
    .max(50)
    .regex(/^[a-zA-Z0-9_.-]+$/, 'may hold letters, digits, "_", "." and "-" only'),
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
});
export const updateTagTypeSchema = z.object({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
});
export type TagType = { name: string; description: string | null; icon: string | null };

export const bulkTagSchema = z.object({
  features: z.array(z.string().min(1)).min(1, 'must list at least one feature'),
  tags: z.object({ addedTags: z.array(tagSchema), removedTags: z.array(tagSchema) }),
});

export interface FeatureTag extends Tag {
  featureName: string;
}

/** A tag as answers show it. */
export const tagViewSchema = z.strictObject({ type: z.string(), value: z.string() });
/** A tag type as answers show it. */
export const tagTypeViewSchema = z.strictObject({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
});
export const tagTypeListSchema = z.strictObject({
  version: z.literal(1),
  tagTypes: z.array(tagTypeViewSchema),
});
export const tagTypeAnswerSchema = z.strictObject({ version: z.literal(1), tagType: tagTypeViewSchema });
export const tagListSchema = z.strictObject({ version: z.literal(1), tags: z.array(tagViewSchema) });
export const validTagTypeSchema = z.strictObject({ valid: z.literal(true), tagType: tagTypeViewSchema });
export const tagAnswerSchema = z.strictObject({ tag: tagViewSchema });
