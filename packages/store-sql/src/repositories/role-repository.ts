import type { Role, RoleRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import type { RepoContext } from '../context.js';
import type { RoleTable } from '../database.js';

const toRole = (row: Selectable<RoleTable>): Role => ({
  id: row.id,
  type: row.type as Role['type'],
  name: row.name,
  description: row.description,
  project: row.project,
});

/** Roles; the built-in ones are seeded when the store opens. */
export function createRoleRepository(ctx: RepoContext): RoleRepository {
  const { db } = ctx;
  return {
    async list() {
      return (await db.selectFrom('roles').selectAll().orderBy('id').execute()).map(toRole);
    },
    async get(id) {
      const row = await db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRole(row) : null;
    },
  };
}
