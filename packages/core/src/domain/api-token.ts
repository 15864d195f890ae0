import { z } from 'zod';

export const apiTokenTypeSchema = z.enum(['client', 'admin', 'frontend']);
export type ApiTokenType = z.infer<typeof apiTokenTypeSchema>;

export const createApiTokenSchema = z
  .object({
    tokenName: z.string().min(1, 'must be a non-empty token name').optional(),
    username: z.string().min(1).optional(),
    type: z
      .string()
      .transform((t) => t.toLowerCase())
      .pipe(apiTokenTypeSchema),
    environment: z.string().min(1).optional(),
    project: z.string().min(1).optional(),
    projects: z.array(z.string().min(1)).min(1, 'must list at least one project').optional(),
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((t) => t.tokenName !== undefined || t.username !== undefined, {
    message: 'is required',
    path: ['tokenName'],
  })
  .refine((t) => !(t.project && t.projects), {
    message: 'cannot be given together with "project"',
    path: ['projects'],
  });
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

export const updateApiTokenSchema = z.object({ expiresAt: z.iso.datetime({ offset: true }) });

/** An API token as stored: only a hash of the secret, and a non-secret prefix for display. */
export interface ApiTokenRecord {
  secretHash: string;
  /** `<project>:<environment>.` plus a few characters; never enough to authenticate. */
  displaySecret: string;
  tokenName: string;
  type: ApiTokenType;
  environment: string;
  projects: string[];
  expiresAt: string | null;
  createdAt: string;
  seenAt: string | null;
  alias: string | null;
  /**
   * The whole secret, sealed with the server's key (AES-256-GCM), so the API can show it again to
   * those allowed to read the token; null when it was not kept (no key, write-only mode, or a token
   * made before secrets were kept).
   */
  secretCiphertext?: string | null;
}

/** An API token as the API returns it. `secret` is whole only in the creation response (or when kept). */
export const apiTokenViewSchema = z.strictObject({
  secret: z.string().describe('The whole secret, or its display prefix ending in "…".'),
  username: z.string(),
  tokenName: z.string(),
  type: apiTokenTypeSchema,
  environment: z.string().describe('"*" for admin tokens.'),
  project: z.string().describe('The one project, or "[]" when the token reaches several.'),
  projects: z.array(z.string()),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  seenAt: z.iso.datetime({ offset: true }).nullable(),
  alias: z.string().nullable(),
});
export type ApiTokenView = z.infer<typeof apiTokenViewSchema>;

/** A list of tokens, as `GET /api/admin/api-tokens` and the project token list answer. */
export const apiTokenListSchema = z.strictObject({ tokens: z.array(apiTokenViewSchema) });
