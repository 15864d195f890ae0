import { z } from 'zod';
import { type Role, roleSchema, type UserView, userViewSchema } from './user.js';

export const createSignupTokenSchema = z.object({
  name: z.string().min(1, 'must be a non-empty name'),
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }),
});
export const updateSignupTokenSchema = z.object({
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  enabled: z.boolean().optional(),
});
export const signupSchema = z.object({
  name: z.string().min(1).optional(),
  email: z.email('must be a valid e-mail address'),
  username: z.string().min(1).optional(),
  /** Checked against the password rules (`validatePassword`) by the service. */
  password: z.string().optional(),
});

export interface SignupTokenRecord {
  secret: string;
  name: string;
  enabled: boolean;
  expiresAt: string;
  createdAt: string;
  createdBy: string | null;
  roleId: number;
  userIds: number[];
}

export interface SignupTokenView {
  secret: string;
  url: string | null;
  name: string;
  enabled: boolean;
  expiresAt: string;
  createdAt: string;
  createdBy: string | null;
  users: UserView[] | null;
  role: Role;
}

/** An invite link as the API answers it (the secret is shown to Admins: it is the link). */
export const signupTokenViewSchema = z.strictObject({
  secret: z.string(),
  url: z.string().nullable(),
  name: z.string(),
  enabled: z.boolean(),
  expiresAt: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  users: z.array(userViewSchema).nullable(),
  role: roleSchema,
});
export const signupTokenListSchema = z.strictObject({ tokens: z.array(signupTokenViewSchema) });
const secretField = { secret: z.string().min(1) };
export const signupTokenSecretSchema = z.object(secretField);
export const updateSignupTokenInputSchema = updateSignupTokenSchema.extend(secretField);
/** Joining through an invite link: the body and the link's secret (the path's token). */
export const signupInputSchema = signupSchema.extend(secretField);
export type SignupInput = z.input<typeof signupSchema>;
export type CreateSignupTokenInput = z.input<typeof createSignupTokenSchema>;
export type UpdateSignupTokenInput = z.input<typeof updateSignupTokenSchema>;
