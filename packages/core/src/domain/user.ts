import { z } from 'zod';

export interface UserRecord {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  imageUrl: string | null;
  rootRole: number;
  accountType: 'User' | 'Service Account';
  loginAttempts: number;
  emailSent: boolean;
  seenAt: string | null;
  createdAt: string;
  scimId: string | null;
  passwordHash: string | null;
}

/** A user as the API returns it (never the password hash). */
export interface UserView {
  id: number;
  isAPI: boolean;
  name: string | null;
  email: string;
  username: string | null;
  imageUrl: string;
  inviteLink: string;
  loginAttempts: number;
  emailSent: boolean;
  rootRole: number;
  seenAt: string | null;
  createdAt: string;
  accountType: string;
  permissions: string[];
  scimId?: string | null;
}

export interface Role {
  id: number;
  type: 'root' | 'project' | 'custom' | 'root-custom';
  name: string;
  description: string;
  project: string | null;
}

/** Built-in roles with the reference's ids. */
export const ROLES = {
  Admin: {
    id: 1,
    type: 'root',
    name: 'Admin',
    description:
      'Users with the root admin role have superuser access to Unleash and can perform any operation within the Unleash platform.',
    project: null,
  },
  Editor: {
    id: 2,
    type: 'root',
    name: 'Editor',
    description:
      'Users with the root editor role have access to most features in Unleash, but can not manage users and roles in the root scope.',
    project: null,
  },
  Viewer: {
    id: 3,
    type: 'root',
    name: 'Viewer',
    description: 'Users with the root viewer role can only read root resources in Unleash.',
    project: null,
  },
  Owner: {
    id: 4,
    type: 'project',
    name: 'Owner',
    description: 'Users with the project owner role have full control over the project.',
    project: null,
  },
  Member: {
    id: 5,
    type: 'project',
    name: 'Member',
    description:
      'Users with the project member role are allowed to view, create, and update feature flags within a project.',
    project: null,
  },
} as const satisfies Record<string, Role>;
export const BUILT_IN_ROLES: readonly Role[] = Object.values(ROLES);

export const createUserSchema = z
  .object({
    name: z.string().min(1).optional(),
    email: z.email('must be a valid e-mail address').optional(),
    username: z.string().min(1).optional(),
    rootRole: z.union([z.number().int(), z.enum(['Admin', 'Editor', 'Viewer'])]).default(3),
  })
  .refine((u) => u.email || u.username, { message: 'is required (or "username")', path: ['email'] });

/** PUT /api/admin/user-admin/:id: only the given properties change. */
export const updateUserSchema = z.object({
  name: z.string().min(1).nullable().optional(),
  email: z.email('must be a valid e-mail address').nullable().optional(),
  rootRole: z.union([z.number().int(), z.enum(['Admin', 'Editor', 'Viewer'])]).optional(),
});

export interface GroupRecord {
  id: number;
  name: string;
  description: string | null;
  rootRole: number | null;
  createdAt: string;
  createdBy: string | null;
}

export const createGroupSchema = z.object({
  name: z.string().min(1, 'must be a non-empty group name'),
  description: z.string().nullable().optional(),
  rootRole: z.number().int().nullable().optional(),
  users: z.array(z.object({ user: z.object({ id: z.number().int() }) })).default([]),
});

/** A role assignment in a project, for a user or a group. */
export interface ProjectRoleAssignment {
  projectId: string;
  roleId: number;
  userId: number | null;
  groupId: number | null;
  createdAt: string;
}
