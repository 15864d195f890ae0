import { createHash } from 'node:crypto';
import type { GroupRecord, Role, UserRecord, UserView } from '../../domain/user.js';
import { notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';

/** Gravatar-style avatar (identicon fallback), so UIs always have a picture; '' without an e-mail. */
export function avatarUrl(email: string | null): string {
  if (!email) return '';
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://gravatar.com/avatar/${hash}?s=42&d=retro&r=g`;
}

/** A user as the API returns it: never the password hash. */
export function userView(user: UserRecord): UserView {
  const view: UserView = {
    id: user.id,
    isAPI: false,
    name: user.name,
    email: user.email ?? '',
    username: user.username,
    imageUrl: user.imageUrl ?? avatarUrl(user.email),
    inviteLink: '',
    loginAttempts: user.loginAttempts,
    emailSent: user.emailSent,
    rootRole: user.rootRole,
    seenAt: user.seenAt,
    createdAt: user.createdAt,
    accountType: user.accountType,
    permissions: [],
  };
  // The contract shows scimId only for users an external directory manages.
  if (user.scimId !== null) view.scimId = user.scimId;
  return view;
}

/** Views of the given user ids, in the given order; unknown ids are skipped. */
export async function userViews(repos: ReadRepositories, ids: readonly number[]): Promise<UserView[]> {
  const views: UserView[] = [];
  for (const id of ids) {
    const user = await repos.users.get(id);
    if (user) views.push(userView(user));
  }
  return views;
}

/** A group with its members, as GET /groups returns it. */
export interface GroupView extends GroupRecord {
  users: { user: UserView }[];
  userCount: number;
  /** Projects the group has a role in (those the caller may see); in every answer of the group routes. */
  projects?: string[];
}

/** Builds a group's view with its members. */
export async function groupView(repos: ReadRepositories, group: GroupRecord): Promise<GroupView> {
  const users = await userViews(repos, await repos.groups.listUsers(group.id));
  return { ...group, users: users.map((user) => ({ user })), userCount: users.length };
}

/** Loads a user or throws NOT_FOUND. */
export async function requireUser(repos: ReadRepositories, id: number): Promise<UserRecord> {
  const user = await repos.users.get(id);
  if (!user) throw notFound('user', id);
  return user;
}

/** Loads a role or throws NOT_FOUND. */
export async function requireRole(repos: ReadRepositories, id: number): Promise<Role> {
  const role = await repos.roles.get(id);
  if (!role) throw notFound('role', id);
  return role;
}

/** Loads a group or throws NOT_FOUND. */
export async function requireGroup(repos: ReadRepositories, id: number): Promise<GroupRecord> {
  const group = await repos.groups.get(id);
  if (!group) throw notFound('group', id);
  return group;
}
