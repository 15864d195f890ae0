import type { ProjectRoleAssignment, UserRecord } from '../domain/user.js';
import { conflict } from '../errors.js';
import type {
  GroupRepository,
  ProjectAccessRepository,
  RoleRepository,
  UserRepository,
} from '../ports/access-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, compareTime, keyOf, type Sync, sorted } from './support.js';

/** Users over a session. */
export function createUserRepository(s: Session): Sync<UserRepository> {
  const users = s.table('users');
  // E-mail addresses are unique regardless of case, since that is how they are looked up.
  const assertUnique = (user: Omit<UserRecord, 'id'>, exceptId?: number): void => {
    const email = user.email?.toLowerCase();
    for (const other of users.rows()) {
      if (other.id === exceptId) continue;
      if (email !== undefined && other.email?.toLowerCase() === email) {
        throw conflict(`A user with the e-mail "${user.email}" already exists.`);
      }
      if (user.username !== null && other.username === user.username) {
        throw conflict(`A user with the username "${user.username}" already exists.`);
      }
    }
  };
  return {
    list: () => sorted(users.rows(), (a, b) => compare(a.id, b.id)).map(copy),
    get: (id) => copy(users.get(id) ?? null),
    getByEmail(email) {
      const wanted = email.toLowerCase();
      return copy(users.rows().find((user) => user.email?.toLowerCase() === wanted) ?? null);
    },
    getByUsername: (username) => copy(users.rows().find((user) => user.username === username) ?? null),
    countWithPassword: () => users.rows().filter((user) => user.passwordHash !== null).length,
    insert(user) {
      assertUnique(user);
      const stored = { ...copy(user), id: s.nextId('users') };
      users.set(stored.id, stored);
      return copy(stored);
    },
    update(user) {
      if (!users.has(user.id)) return false;
      assertUnique(user, user.id);
      users.set(user.id, copy(user));
      return true;
    },
    markSeen(id, at) {
      const user = users.get(id);
      if (user) users.set(id, { ...user, seenAt: at });
    },
    delete(id) {
      if (!users.delete(id)) return false;
      // What only makes sense while the user exists goes with it (foreign-key cascades in SQL).
      s.table('groupUsers').deleteWhere((member) => member.userId === id);
      s.table('projectAccess').deleteWhere((assignment) => assignment.userId === id);
      s.table('favorites').deleteWhere((favorite) => favorite.userId === id);
      s.table('sessions').deleteWhere((session) => session.userId === id);
      return true;
    },
  };
}

/** The built-in roles, seeded when the database is created. */
export function createRoleRepository(s: Session): Sync<RoleRepository> {
  const roles = s.table('roles');
  return {
    list: () => sorted(roles.rows(), (a, b) => compare(a.id, b.id)).map(copy),
    get: (id) => copy(roles.get(id) ?? null),
  };
}

/** Groups and their members over a session. */
export function createGroupRepository(s: Session): Sync<GroupRepository> {
  const groups = s.table('groups');
  const members = s.table('groupUsers');
  return {
    list: () => sorted(groups.rows(), (a, b) => compare(a.id, b.id)).map(copy),
    get: (id) => copy(groups.get(id) ?? null),
    insert(group) {
      if (groups.rows().some((other) => other.name === group.name)) {
        throw conflict(`A group named "${group.name}" already exists.`);
      }
      const stored = { ...copy(group), id: s.nextId('groups') };
      groups.set(stored.id, stored);
      return copy(stored);
    },
    update(group) {
      if (!groups.has(group.id)) return false;
      if (groups.rows().some((other) => other.id !== group.id && other.name === group.name)) {
        throw conflict(`A group named "${group.name}" already exists.`);
      }
      groups.set(group.id, copy(group));
      return true;
    },
    delete(id) {
      if (!groups.delete(id)) return false;
      members.deleteWhere((member) => member.groupId === id);
      s.table('projectAccess').deleteWhere((row) => row.groupId === id);
      return true;
    },
    listUsers: (groupId) =>
      members
        .rows()
        .filter((member) => member.groupId === groupId)
        .map((member) => member.userId)
        .sort(compare),
    addUsers(groupId, userIds, at) {
      const added: number[] = [];
      for (const userId of userIds) {
        const key = keyOf(groupId, userId);
        if (members.has(key)) continue;
        members.set(key, { groupId, userId, createdAt: at });
        added.push(userId);
      }
      return added;
    },
    removeUsers(groupId, userIds) {
      const removed: number[] = [];
      for (const userId of userIds) if (members.delete(keyOf(groupId, userId))) removed.push(userId);
      return removed;
    },
    groupsOf: (userId) =>
      members
        .rows()
        .filter((member) => member.userId === userId)
        .map((member) => member.groupId)
        .sort(compare),
  };
}

const assignmentOrder = by<ProjectRoleAssignment>(
  (a, b) => compareTime(a.createdAt, b.createdAt),
  (a, b) => compare(a.projectId, b.projectId),
  (a, b) => compare(a.userId ?? 0, b.userId ?? 0),
  (a, b) => compare(a.groupId ?? 0, b.groupId ?? 0),
  (a, b) => compare(a.roleId, b.roleId),
);

/** Project role assignments over a session. */
export function createProjectAccessRepository(s: Session): Sync<ProjectAccessRepository> {
  const assignments = s.table('projectAccess');
  const subjectKey = (a: { userId: number | null; groupId: number | null }): string =>
    a.userId === null ? `group:${a.groupId}` : `user:${a.userId}`;
  return {
    list: (projectId) =>
      sorted(
        assignments.rows().filter((a) => projectId === undefined || a.projectId === projectId),
        assignmentOrder,
      ).map(copy),
    setRoles(projectId, subject, roleIds, at) {
      const userId = 'userId' in subject ? subject.userId : null;
      const groupId = 'groupId' in subject ? subject.groupId : null;
      const subjectOf = subjectKey({ userId, groupId });
      assignments.deleteWhere((a) => a.projectId === projectId && subjectKey(a) === subjectOf);
      for (const roleId of roleIds) {
        assignments.set(keyOf(projectId, subjectOf, roleId), {
          projectId,
          roleId,
          userId,
          groupId,
          createdAt: at,
        });
      }
    },
    forUser(userId, groupIds) {
      const groupSet = new Set(groupIds);
      return sorted(
        assignments
          .rows()
          .filter((a) => a.userId === userId || (a.groupId !== null && groupSet.has(a.groupId))),
        assignmentOrder,
      ).map(copy);
    },
  };
}
