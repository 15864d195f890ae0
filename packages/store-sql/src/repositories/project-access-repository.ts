import type { ProjectAccessRepository, ProjectRoleAssignment } from '@flagstaff/core';
import { type Selectable, sql } from 'kysely';
import { inList, type RepoContext, rowBatches } from '../context.js';
import type { ProjectRoleTable } from '../database.js';

const toAssignment = (row: Selectable<ProjectRoleTable>): ProjectRoleAssignment => ({
  projectId: row.project_id,
  roleId: row.role_id,
  userId: row.user_id,
  groupId: row.group_id,
  createdAt: row.created_at,
});

/** Role assignments of users and groups within projects. */
export function createProjectAccessRepository(ctx: RepoContext): ProjectAccessRepository {
  const { db } = ctx;
  const ordered = () =>
    db
      .selectFrom('project_roles')
      .selectAll()
      .orderBy('created_at')
      .orderBy('project_id')
      .orderBy(sql`coalesce(user_id, 0)`)
      .orderBy(sql`coalesce(group_id, 0)`)
      .orderBy('role_id');
  return {
    async list(projectId) {
      const query = projectId === undefined ? ordered() : ordered().where('project_id', '=', projectId);
      return (await query.execute()).map(toAssignment);
    },
    async setRoles(projectId, subject, roleIds, at) {
      const userId = 'userId' in subject ? subject.userId : null;
      const groupId = 'groupId' in subject ? subject.groupId : null;
      let doomed = db.deleteFrom('project_roles').where('project_id', '=', projectId);
      doomed =
        userId === null
          ? doomed.where('user_id', 'is', null).where('group_id', '=', groupId)
          : doomed.where('user_id', '=', userId);
      await doomed.execute();
      const distinct = [...new Set(roleIds)];
      if (distinct.length === 0) return;
      for (const batch of rowBatches(distinct, 5)) {
        await db
          .insertInto('project_roles')
          .values(
            batch.map((roleId) => ({
              project_id: projectId,
              role_id: roleId,
              user_id: userId,
              group_id: groupId,
              created_at: at,
            })),
          )
          .execute();
      }
    },
    async forUser(userId, groupIds) {
      const query = ordered().where((eb) =>
        groupIds.length === 0
          ? eb('user_id', '=', userId)
          : eb.or([eb('user_id', '=', userId), inList(ctx, 'group_id', [...new Set(groupIds)])]),
      );
      return (await query.execute()).map(toAssignment);
    },
  };
}
