import type { ApiTokenRecord } from '../domain/api-token.js';
import type { SignupTokenRecord } from '../domain/signup-token.js';
import type { GroupRecord, ProjectRoleAssignment, Role, UserRecord } from '../domain/user.js';

/** Users. Ids are assigned by the store and increase. */
export interface UserRepository {
  /** Ordered by id. */
  list(): Promise<UserRecord[]>;
  get(id: number): Promise<UserRecord | null>;
  /** Case-insensitive e-mail lookup. */
  getByEmail(email: string): Promise<UserRecord | null>;
  /** Exact username lookup. */
  getByUsername(username: string): Promise<UserRecord | null>;
  /** Whether any user has a password (admin bootstrap). */
  countWithPassword(): Promise<number>;
  /** Inserts and returns the user with its id; CONFLICT when the e-mail or username exists. */
  insert(user: Omit<UserRecord, 'id'>): Promise<UserRecord>;
  update(user: UserRecord): Promise<boolean>;
  /** Stamps seenAt alone (no other column is written, so it cannot undo a concurrent update). */
  markSeen(id: number, at: string): Promise<void>;
  /** Deletes the user with their group memberships, project roles, favorites and sessions. */
  delete(id: number): Promise<boolean>;
}

/** Roles: the built-in ones are seeded by the store when it is created. */
export interface RoleRepository {
  /** Ordered by id. */
  list(): Promise<Role[]>;
  get(id: number): Promise<Role | null>;
}

/** Groups of users. */
export interface GroupRepository {
  /** Ordered by id. */
  list(): Promise<GroupRecord[]>;
  get(id: number): Promise<GroupRecord | null>;
  /** Inserts and returns the group with its id; CONFLICT when the name exists. */
  insert(group: Omit<GroupRecord, 'id'>): Promise<GroupRecord>;
  /** Replaces name, description and root role; false when the group does not exist; CONFLICT when another group has the name. */
  update(group: GroupRecord): Promise<boolean>;
  /** Deletes the group with its memberships and its project roles; false when it did not exist. */
  delete(id: number): Promise<boolean>;
  /** Member user ids of a group, ascending. */
  listUsers(groupId: number): Promise<number[]>;
  /** Adds users (already-present ones are ignored); returns the ids newly added. */
  addUsers(groupId: number, userIds: readonly number[], at: string): Promise<number[]>;
  /** Removes users from a group (absent ones are ignored); returns the ids that were members, in the given order. */
  removeUsers(groupId: number, userIds: readonly number[]): Promise<number[]>;
  /** Groups a user belongs to. */
  groupsOf(userId: number): Promise<number[]>;
}

/** Role assignments within projects. */
export interface ProjectAccessRepository {
  /** Assignments of a project (or all), ordered by createdAt. */
  list(projectId?: string): Promise<ProjectRoleAssignment[]>;
  /** Replaces the roles a user or group has in a project with the given one(s). */
  setRoles(
    projectId: string,
    subject: { userId: number } | { groupId: number },
    roleIds: readonly number[],
    at: string,
  ): Promise<void>;
  /** Assignments that apply to a user directly or through groups, across projects. */
  forUser(userId: number, groupIds: readonly number[]): Promise<ProjectRoleAssignment[]>;
}

/** API tokens; only a hash of the secret is stored. */
export interface ApiTokenRepository {
  /** Ordered by createdAt, then tokenName. */
  list(): Promise<ApiTokenRecord[]>;
  getByHash(secretHash: string): Promise<ApiTokenRecord | null>;
  /** Tokens with this exact name. */
  listByName(tokenName: string): Promise<ApiTokenRecord[]>;
  /** CONFLICT on a duplicate hash. */
  insert(token: ApiTokenRecord): Promise<void>;
  update(token: ApiTokenRecord): Promise<boolean>;
  delete(secretHash: string): Promise<boolean>;
  /** Stamps seenAt for the given hashes. */
  markSeen(secretHashes: readonly string[], at: string): Promise<void>;
  /** Number of admin tokens (first-start bootstrap). */
  countAdmin(): Promise<number>;
}

/** Public signup tokens (invite links). */
export interface SignupTokenRepository {
  /** Ordered by createdAt descending. */
  list(): Promise<SignupTokenRecord[]>;
  get(secret: string): Promise<SignupTokenRecord | null>;
  insert(token: SignupTokenRecord): Promise<void>;
  /** Replaces name, enabled, expiresAt (not users). */
  update(token: SignupTokenRecord): Promise<boolean>;
  addUser(secret: string, userId: number, at: string): Promise<void>;
}
