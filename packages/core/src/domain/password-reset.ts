import { z } from 'zod';

/** POST /api/admin/user-admin/reset-password: the user a reset link is for, by id, e-mail or username. */
export const resetLinkSchema = z.object({
  id: z.union([z.string().min(1, 'must name a user by id, e-mail or username'), z.number().int()]),
});
/** A reset link, made absolute by HTTP when no base URL is configured. */
export const resetLinkAnswerSchema = z.strictObject({ resetPasswordUrl: z.string() });

/** GET /auth/reset/validate?token=. */
export const resetTokenQuerySchema = z.object({ token: z.string().min(1, 'is required') });
/** Whom a valid reset link is for. */
export const resetLinkUserSchema = z.strictObject({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  token: z.string(),
});

/** POST /auth/reset/password. */
export const resetWithTokenSchema = z.object({
  token: z.string().min(1, 'is required'),
  password: z.string(),
});

/** A password to check against the rules (`validatePassword`). */
export const passwordCheckSchema = z.object({ password: z.string() });

export type ResetLinkInput = z.input<typeof resetLinkSchema>;
export type ResetWithTokenInput = z.input<typeof resetWithTokenSchema>;
