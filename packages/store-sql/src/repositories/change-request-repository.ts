import type { ChangeRequestRecord, ChangeRequestRepository, NewChangeRequest } from '@flagstaff/core';
import { bool, jsonOf, parseOf, type RepoContext, touched } from '../context.js';

/** When the scheduler should look at a request: only while its schedule is pending. */
const dueAt = (r: NewChangeRequest): string | null =>
  r.state === 'Scheduled' && r.schedule?.status === 'pending' ? r.schedule.scheduledAt : null;

/** Change requests (one row each, the body as a JSON document) and their per-environment settings. */
export function createChangeRequestRepository(ctx: RepoContext): ChangeRequestRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toRecord = (row: { id: number; document: unknown }): ChangeRequestRecord => ({
    ...parse<NewChangeRequest>(row.document),
    id: row.id,
  });
  const columns = (r: NewChangeRequest) => ({
    project: r.project,
    environment: r.environment,
    state: r.state,
    created_by_user_id: r.createdBy.id,
    due_at: dueAt(r),
    document: json(r),
  });
  return {
    async listSettings(project) {
      const rows = await db
        .selectFrom('change_request_settings')
        .selectAll()
        .where('project', '=', project)
        .orderBy('environment')
        .execute();
      return rows.map((r) => ({
        project: r.project,
        environment: r.environment,
        enabled: bool(r.enabled),
        requiredApprovals: r.required_approvals,
      }));
    },
    async saveSetting(s) {
      const values = { enabled: s.enabled, required_approvals: s.requiredApprovals };
      await db
        .insertInto('change_request_settings')
        .values({ project: s.project, environment: s.environment, ...values })
        .onConflict((oc) => oc.columns(['project', 'environment']).doUpdateSet(values))
        .execute();
    },
    async get(id) {
      const row = await db
        .selectFrom('change_requests')
        .select(['id', 'document'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },
    async list(filter) {
      let q = db.selectFrom('change_requests').select(['id', 'document']);
      if (filter.project !== undefined) q = q.where('project', '=', filter.project);
      if (filter.environment !== undefined) q = q.where('environment', '=', filter.environment);
      if (filter.states !== undefined) {
        if (filter.states.length === 0) return [];
        q = q.where('state', 'in', [...filter.states]);
      }
      if (filter.createdByUserId !== undefined)
        q = q.where('created_by_user_id', '=', filter.createdByUserId);
      return (await q.orderBy('id', 'desc').execute()).map(toRecord);
    },
    async listDue(now) {
      const rows = await db
        .selectFrom('change_requests')
        .select(['id', 'document'])
        .where('due_at', 'is not', null)
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
    async insert(request) {
      const row = await db
        .insertInto('change_requests')
        .values(columns(request))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async update(request) {
      const { id, ...rest } = request;
      return touched(
        await db.updateTable('change_requests').set(columns(rest)).where('id', '=', id).executeTakeFirst(),
      );
    },
    async delete(id) {
      return touched(await db.deleteFrom('change_requests').where('id', '=', id).executeTakeFirst());
    },
  };
}
