import { z } from 'zod';

/** A personal access token: acts as the user who made it, on the admin API, until it expires. */
export interface PersonalAccessToken {
  id: number;
  userId: number;
  description: string;
  expiresAt: string;
  createdAt: string;
  seenAt: string | null;
}

/** As stored: with the SHA-256 of its secret, the lookup key. */
export interface PersonalAccessTokenRecord extends PersonalAccessToken {
  secretHash: string;
}

export const personalTokenInputSchema = z.object({
  description: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
});
export type PersonalTokenInput = z.input<typeof personalTokenInputSchema>;

/** A personal access token as the API shows it: never its secret or hash. */
export const personalAccessTokenSchema = z.strictObject({
  id: z.number().int(),
  userId: z.number().int(),
  description: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
});

/** The signed-in user's tokens (`GET /api/admin/user/tokens`). */
export const personalTokenListSchema = z.strictObject({ pats: z.array(personalAccessTokenSchema) });

/** A token just made: the one answer that holds its secret. */
export const createdPersonalTokenSchema = personalAccessTokenSchema.extend({ secret: z.string() });

export const personalTokenIdSchema = z.object({ id: z.number().int() });
