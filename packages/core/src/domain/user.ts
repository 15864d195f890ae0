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

/** A user as the API returns it: `z.strictObject`, so a password hash that slipped in fails a test. */
export const userViewSchema = z.strictObject({
  id: z.number().int(),
  isAPI: z.boolean(),
  name: z.string().nullable(),
  email: z.string(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  inviteLink: z.string(),
  loginAttempts: z.number().int(),
  emailSent: z.boolean(),
  /** The root role's id: 1 Admin, 2 Editor, 3 Viewer. */
  rootRole: z.number().int(),
  seenAt: z.string().nullable(),
  createdAt: z.string(),
  accountType: z.string(),
  permissions: z.array(z.string()),
  /** Only for users an external directory (SCIM) manages. */
  scimId: z.string().nullable().optional(),
});

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
      'Admins may do everything: manage users, roles, tokens and integrations, and see and change every project, private ones included.',
    project: null,
  },
  Editor: {
    id: 2,
    type: 'root',
    name: 'Editor',
    description:
      'Editors create and change flags, segments, context fields and tags in every open project, and issue SDK tokens; they cannot manage users, roles or integrations.',
    project: null,
  },
  Viewer: {
    id: 3,
    type: 'root',
    name: 'Viewer',
    description:
      'Viewers read flags, projects and the event log; they change only what a project role gives them.',
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

/** GET /api/admin/user-admin. */
export const userListSchema = z.strictObject({ users: z.array(userViewSchema) });
const userIdField = { id: z.number().int() };
export const userIdSchema = z.object(userIdField);
export const updateUserInputSchema = updateUserSchema.extend(userIdField);
export type CreateUserInput = z.input<typeof createUserSchema>;
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** A role as the role routes answer it. */
export const roleSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(['root', 'project', 'custom', 'root-custom']),
  name: z.string(),
  description: z.string(),
  project: z.string().nullable(),
});
/** GET /api/admin/roles. */
export const roleListSchema = z.strictObject({ version: z.literal(1), roles: z.array(roleSchema) });
export const roleIdSchema = z.object({ id: z.number().int() });

/** GET /api/admin/user-admin/search?q=. */
export const userSearchQuerySchema = z.object({
  q: z.string().max(100, 'must be at most 100 characters').default(''),
});
/** POST /api/admin/user-admin/inactive/delete. */
export const inactiveDeleteSchema = z.object({
  ids: z.array(z.number().int('must hold user ids')).max(1_000, 'must list at most 1000 users'),
});

/** The short user the access and search lists answer. */
export const userBriefSchema = z.strictObject({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  accountType: z.string(),
});
export const userSearchResultSchema = z.array(userBriefSchema);
/** GET /api/admin/groups/search?q=: groups whose name or description holds q. */
export const groupSearchQuerySchema = z.object({
  q: z.string().max(100, 'must be at most 100 characters').default(''),
});
/** The short group the access and search lists answer. */
export const groupBriefSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  userCount: z.number().int(),
});
export const groupSearchResultSchema = z.array(groupBriefSchema);
/** GET /api/admin/user-admin/access: users and groups that can be given access. */
export const accessCandidatesSchema = z.strictObject({
  users: z.array(userBriefSchema),
  groups: z.array(groupBriefSchema),
});
/** GET /api/admin/user-admin/admin-count. */
export const adminCountSchema = z.strictObject({
  password: z.number().int(),
  noPassword: z.number().int(),
  service: z.number().int(),
});
/** GET /api/admin/user-admin/inactive. */
export const inactiveUsersSchema = z.strictObject({
  version: z.literal(1),
  inactiveUsers: z.array(userBriefSchema.extend({ seenAt: z.string().nullable(), createdAt: z.string() })),
});
export const inactiveDeletedSchema = z.strictObject({ deleted: z.array(z.number().int()) });
/** GET /api/admin/user/profile. */
export const userProfileSchema = z.strictObject({
  rootRole: roleSchema,
  projects: z.array(z.string()),
  subscriptions: z.array(z.string()),
  features: z.array(z.string()),
});
export const userRolesSchema = z.array(roleSchema);

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

/** PUT /api/admin/groups/:id: what is omitted stays; `users`, when given, becomes the whole membership. */
export const updateGroupSchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty group name').optional(),
  description: z.string().nullable().optional(),
  rootRole: z.number().int().nullable().optional(),
  users: z.array(z.object({ user: z.object({ id: z.number().int() }) })).optional(),
});

export type CreateGroupInput = z.input<typeof createGroupSchema>;
export type UpdateGroupInput = z.input<typeof updateGroupSchema>;

const groupUsersSchema = z.array(z.object({ user: z.object({ id: z.number().int() }) }));

/** A group and its members as the group routes answer it. */
export const groupViewSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  rootRole: z.number().int().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  users: z.array(z.strictObject({ user: userViewSchema })),
  userCount: z.number().int(),
  /** Projects the group has a role in, those the caller may see. */
  projects: z.array(z.string()).optional(),
});
export const groupListSchema = z.strictObject({ groups: z.array(groupViewSchema) });

const groupIdField = { id: z.number().int() };
export const groupIdSchema = z.object(groupIdField);
export const updateGroupInputSchema = updateGroupSchema.extend(groupIdField);
/** POST /api/admin/groups/:id/users: users joining the group. */
export const addGroupUsersSchema = z.object({ ...groupIdField, users: groupUsersSchema });
export const removeGroupUserSchema = z.object({ ...groupIdField, userId: z.number().int() });

/** A role assignment in a project, for a user or a group. */
export interface ProjectRoleAssignment {
  projectId: string;
  roleId: number;
  userId: number | null;
  groupId: number | null;
  createdAt: string;
}

const idOrObject = z.union([z.number().int(), z.object({ id: z.number().int() }).transform((o) => o.id)]);

/** PUT /projects/:p/users/:u/roles and /groups/:g/roles: the subject's whole set of roles there. */
export const projectRolesSchema = z.object({ roles: z.array(z.number().int()) });

/** POST /projects/:p/role/:r/access: who gets the role in the path (ids or `{ id }` objects). */
export const roleAccessSchema = z.object({
  users: z.array(idOrObject).default([]),
  groups: z.array(idOrObject).default([]),
});

/** POST /projects/:p/access: every listed user and group gets every listed role. */
export const addProjectAccessSchema = z.object({
  roles: z.array(z.number().int()).min(1, 'must list at least one role'),
  users: z.array(idOrObject).default([]),
  groups: z.array(idOrObject).default([]),
});

const projectField = { projectId: z.string() };
/** The inputs of the project access operations: the path's project (and subject) with the body. */
export const projectAccessProjectSchema = z.object(projectField);
export const addProjectAccessInputSchema = addProjectAccessSchema.extend(projectField);
export const addRoleAccessInputSchema = roleAccessSchema.extend({
  ...projectField,
  roleId: z.number().int(),
});
export const setUserProjectRolesSchema = projectRolesSchema.extend({
  ...projectField,
  userId: z.number().int(),
});
export const setGroupProjectRolesSchema = projectRolesSchema.extend({
  ...projectField,
  groupId: z.number().int(),
});
export const setGroupProjectRoleSchema = z.object({
  ...projectField,
  groupId: z.number().int(),
  roleId: z.number().int(),
});
export const projectUserSchema = z.object({ ...projectField, userId: z.number().int() });
export const projectGroupSchema = z.object({ ...projectField, groupId: z.number().int() });

/** A subject's roles in a project: `roleId` is the first, for clients that know only one. */
const accessFields = { roleId: z.number().int(), roles: z.array(z.number().int()), addedAt: z.string() };
/** GET /projects/:p/access: who has which roles in a project, and the roles that can be given there. */
export const projectAccessSchema = z.strictObject({
  roles: z.array(roleSchema),
  users: z.array(userViewSchema.extend(accessFields)),
  groups: z.array(groupViewSchema.extend(accessFields)),
});
