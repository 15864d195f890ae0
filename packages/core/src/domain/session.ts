import { z } from 'zod';
import { type UserView, userViewSchema } from './user.js';

/**
 * A login session as stored. The session id itself is never stored: only its SHA-256 (hex), so a
 * copy of the database does not hand out live sessions.
 */
export interface SessionRecord {
  /** SHA-256 of the session id, lower-case hex; the primary key. */
  idHash: string;
  userId: number;
  createdAt: string;
  /** When the session was last used (written at most about once a minute). */
  lastSeenAt: string;
  /** lastSeenAt plus the idle lifetime: the session is dead from this instant on. */
  expiresAt: string;
  /** The client address at login, when the adapter passed one. */
  ip: string | null;
}

/** Failed logins of one username (lower-cased), counted across processes that share the store. */
export interface LoginThrottleRecord {
  /** The name the client logged in with, lower-cased (a username or an e-mail address). */
  username: string;
  failures: number;
  firstFailureAt: string;
  lastFailureAt: string;
  /** Refuse every attempt until this instant; null while not locked. */
  lockedUntil: string | null;
}

/** POST /auth/simple/login. `username` may be a username or an e-mail address. */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'must be a non-empty username or e-mail address').max(320),
  password: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  ip: z.string().max(100).nullable().optional(),
});
export type LoginInput = z.input<typeof loginSchema>;

/** A user changing their own password (POST /api/admin/user/change-password). */
export const changePasswordSchema = z.object({
  oldPassword: z.string().min(1, 'is required'),
  password: z.string(),
  /** The reference's UI sends the new password twice; when given, both must agree. */
  confirmPassword: z.string().optional(),
});

/** The change-password operation: the body, and the session making the request (it stays). */
export const changeOwnPasswordSchema = changePasswordSchema.extend({
  currentSessionId: z.string().optional(),
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** An Admin setting another user's password (POST /api/admin/user-admin/:id/change-password). */
export const resetPasswordSchema = z.object({ password: z.string() });
/** The set-password operation: the body and the user (the path's id). */
export const setUserPasswordSchema = resetPasswordSchema.extend({ id: z.number().int() });
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

/** What a successful login returns; the session id is the caller's to put in a cookie. */
export interface LoginResult {
  user: UserView;
  sessionId: string;
  expiresAt: string;
}

/** What a successful login returns (HTTP answers only `user` and sets the cookie). */
export const loginResultSchema = z.strictObject({
  user: userViewSchema,
  sessionId: z.string(),
  expiresAt: z.string(),
});

/** Ending a session: its id (from the cookie); none, or a malformed one, ends nothing. */
export const logoutSchema = z.object({ sessionId: z.string().optional() });

/** One permission a principal holds, as GET /api/admin/user lists them. */
export interface PermissionGrant {
  permission: string;
  project?: string;
  environment?: string;
}

/** GET /api/admin/user: who is signed in and what they may do. */
export interface CurrentUser {
  user: UserView;
  permissions: PermissionGrant[];
  feedback: unknown[];
  splash: Record<string, boolean>;
}

/** One permission as GET /api/admin/user lists it; `ADMIN` stands for every permission. */
export const permissionGrantSchema = z.strictObject({
  permission: z.string(),
  project: z.string().optional(),
  environment: z.string().optional(),
});

/** GET /api/admin/user: who is signed in and what they may do (the admin UI's session). */
export const currentUserSchema = z.strictObject({
  user: userViewSchema,
  permissions: z.array(permissionGrantSchema),
  feedback: z.array(z.unknown()),
  splash: z.record(z.string(), z.boolean()),
});
