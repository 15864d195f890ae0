import { z } from 'zod';
import { type PatchOperation, patchDocumentSchema } from './strategy.js';
import { type VariantInput, variantSchema } from './variant.js';

/** A list of variants, as a body holds it. */
export const variantListSchema = z.array(variantSchema);

/** `{ features: [...] }`: the features a bulk switch turns on or off. */
export const bulkFeatureNamesSchema = z.object({
  features: z.array(z.string().min(1)).min(1, 'must list at least one feature'),
});

/** `{ variants, environments }`: the same variants for several environments of a feature. */
export const variantsBatchSchema = z.object({
  variants: variantListSchema,
  environments: z.array(z.string().min(1)).min(1, 'must list at least one environment'),
});

/** The answer of the variant routes: `{ version: 1, variants }`. */
export const variantsAnswerSchema = z.strictObject({
  version: z.literal(1),
  variants: variantListSchema,
});
export type VariantsAnswer = z.infer<typeof variantsAnswerSchema>;

/** Whether a list is a JSON-patch document rather than a list of variants (the legacy routes take both). */
export const isPatchDocument = (list: unknown): boolean =>
  Array.isArray(list) && list.some((op) => op && typeof op === 'object' && 'op' in op);

/**
 * An input whose `variants` were the whole request body: they are checked where they stand, so a
 * problem names `[1].payload.value` (not `variants[1]…`), as before the body became an input.
 * `patch` also accepts a JSON-patch document (the legacy feature-level routes).
 */
export function withBodyVariants<S extends z.ZodRawShape>(shape: S, patch = false) {
  return z
    .object({ ...shape, variants: z.custom<VariantInput[] | PatchOperation[]>(() => true) })
    .superRefine((input, ctx) => {
      const list = (input as { variants?: unknown }).variants;
      const schema = patch && isPatchDocument(list) ? patchDocumentSchema : variantListSchema;
      const result = schema.safeParse(list);
      if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue });
    });
}
