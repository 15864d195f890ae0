import type { GroupRecord, GroupRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { type RepoContext, touched, uniqueOr } from '../context.js';
import type { GroupTable } from '../database.js';

const toGroup = (row: Selectable<GroupTable>): GroupRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  rootRole: row.root_role,
  createdAt: row.created_at,
  createdBy: row.created_by,
});

/** Groups and their members. */
export function createGroupRepository(ctx: RepoContext): GroupRepository {
  const { db } = ctx;
  return {
    async list() {
      return (await db.selectFrom('user_groups').selectAll().orderBy('id').execute()).map(toGroup);
    },
    async get(id) {
      const row = await db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toGroup(row) : null;
    },
    async insert(group) {
      const row = await uniqueOr(ctx, `A group named "${group.name}" already exists.`, (d) =>
        d
          .insertInto('user_groups')
          .values({
            name: group.name,
            description: group.description,
            root_role: group.rootRole,
            created_at: group.createdAt,
            created_by: group.createdBy,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toGroup(row);
    },
    async update(group) {
      const result = await uniqueOr(ctx, `A group named "${group.name}" already exists.`, (d) =>
        d
          .updateTable('user_groups')
          .set({ name: group.name, description: group.description, root_role: group.rootRole })
          .where('id', '=', group.id)
          .executeTakeFirst(),
      );
      return touched(result);
    },
    async delete(id) {
      if (!touched(await db.deleteFrom('user_groups').where('id', '=', id).executeTakeFirst())) return false;
      // Memberships and project roles mean nothing without the group.
      await db.deleteFrom('group_users').where('group_id', '=', id).execute();
      await db.deleteFrom('project_roles').where('group_id', '=', id).execute();
      return true;
    },
    async listUsers(groupId) {
      const rows = await db
        .selectFrom('group_users')
        .select('user_id')
        .where('group_id', '=', groupId)
        .orderBy('user_id')
        .execute();
      return rows.map((row) => row.user_id);
    },
    async addUsers(groupId, userIds, at) {
      const added: number[] = [];
      for (const userId of userIds) {
        const result = await db
          .insertInto('group_users')
          .values({ group_id: groupId, user_id: userId, created_at: at })
          .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
          .executeTakeFirst();
        if ((result.numInsertedOrUpdatedRows ?? 0n) > 0n) added.push(userId);
      }
      return added;
    },
    async removeUsers(groupId, userIds) {
      const removed: number[] = [];
      for (const userId of userIds) {
        const result = await db
          .deleteFrom('group_users')
          .where('group_id', '=', groupId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (touched(result)) removed.push(userId);
      }
      return removed;
    },
    async groupsOf(userId) {
      const rows = await db
        .selectFrom('group_users')
        .select('group_id')
        .where('user_id', '=', userId)
        .orderBy('group_id')
        .execute();
      return rows.map((row) => row.group_id);
    },
  };
}
