import { z } from 'zod';
import { type Caller, callerOf } from '../../auth/caller.js';
import { principalOfUser, seesProject } from '../../auth/principal.js';
import {
  type ChangeRequestRecord,
  type ChangeRequestState,
  changeRequestConfigInputSchema,
  OPEN_STATES,
} from '../../domain/change-request.js';
import { parseWith } from '../../domain/parse.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject, requireProjectEnvironment } from '../projects/project-service.js';
import { requireRequest, userOf } from './change-request-service.js';
import { sameUser } from './change-request-states.js';
import { type ChangeRequestView, searchRowOf, viewOf } from './change-request-view.js';

const OPEN = [...OPEN_STATES];
const count = (max?: number) => {
  const n = z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must not be negative');
  return (max === undefined ? n : n.max(max, `must be at most ${max}`)).optional();
};
const searchQuerySchema = z.object({
  createdBy: count(),
  requestedApproverId: count(),
  state: z.enum(['open', 'closed'], { message: 'must be "open" or "closed"' }).optional(),
  offset: count(),
  limit: count(1000),
});

/** Change-request settings of a project and every read of its requests. */
export function createChangeRequestReads(deps: ServiceDeps) {
  const { store } = deps;

  /** Others' drafts are their own business: listings show the caller's drafts only. */
  const visibleTo = (caller: Caller) => (r: ChangeRequestRecord) =>
    r.state !== 'Draft' || sameUser(r.createdBy, userOf(caller));

  async function listed(caller: Caller, project: string, states?: readonly ChangeRequestState[]) {
    await deps.policy.require(caller, 'NONE', { project });
    await requireProject(store, project);
    return (await store.changeRequests.list({ project, states })).filter(visibleTo(caller));
  }

  const views = (records: ChangeRequestRecord[]): Promise<ChangeRequestView[]> =>
    Promise.all(records.map((r) => viewOf(store, r)));

  return {
    /** GET …/change-requests/config: every environment of the project with its setting. */
    async getConfig(caller: Caller, project: string) {
      await deps.policy.require(caller, 'NONE', { project });
      await requireProject(store, project);
      const [links, environments, settings] = await Promise.all([
        store.environments.listForProject(project),
        store.environments.list(),
        store.changeRequests.listSettings(project),
      ]);
      const linked = new Set(links.map((l) => l.environment));
      return environments
        .filter((e) => linked.has(e.name))
        .map((e) => {
          const setting = settings.find((s) => s.environment === e.name);
          return {
            environment: e.name,
            type: e.type,
            changeRequestEnabled: setting?.enabled ?? false,
            requiredApprovals: setting?.requiredApprovals ?? 1,
          };
        });
    },

    /** PUT …/environments/:environment/change-requests/config (change-request-configuration-updated). */
    async setConfig(caller: Caller, project: string, environment: string, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project });
      const body = parseWith(changeRequestConfigInputSchema, input);
      await inTransaction(deps, async (tx) => {
        await requireProjectEnvironment(tx, project, environment);
        const before = (await tx.changeRequests.listSettings(project)).find(
          (s) => s.environment === environment,
        );
        const setting = {
          project,
          environment,
          enabled: body.changeRequestsEnabled,
          requiredApprovals: body.requiredApprovals ?? before?.requiredApprovals ?? 1,
        };
        await tx.changeRequests.saveSetting(setting);
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type: 'change-request-configuration-updated',
            project,
            environment,
            data: { changeRequestsEnabled: setting.enabled, requiredApprovals: setting.requiredApprovals },
            preData: before
              ? { changeRequestsEnabled: before.enabled, requiredApprovals: before.requiredApprovals }
              : null,
          },
        ]);
      });
    },

    async get(caller: Caller, project: string, id: number): Promise<ChangeRequestView> {
      await deps.policy.require(caller, 'NONE', { project });
      return viewOf(store, await requireRequest(store, project, id));
    },

    /** Every request of the project the caller may see. */
    list: async (caller: Caller, project: string) => views(await listed(caller, project)),

    /** The caller's drafts in the project. */
    draft: async (caller: Caller, project: string) => views(await listed(caller, project, ['Draft'])),

    /** Requests still waiting for something: the caller's drafts, in review, approved, scheduled. */
    open: async (caller: Caller, project: string) => views(await listed(caller, project, OPEN)),

    /** Open requests with a change to one feature. */
    async pendingForFeature(caller: Caller, project: string, feature: string) {
      const records = await listed(caller, project, OPEN);
      return views(records.filter((r) => r.changes.some((c) => c.feature === feature)));
    },

    /** Scheduled requests changing a strategy or a feature's variants (`{ id, title }` each). */
    async scheduled(
      caller: Caller,
      project: string,
      query: { strategyId?: string; variantForFlag?: string },
    ) {
      const records = await listed(caller, project, ['Scheduled']);
      return records
        .filter((r) =>
          r.changes.some((c) =>
            query.strategyId !== undefined
              ? (c.payload as { id?: unknown } | null)?.id === query.strategyId
              : query.variantForFlag !== undefined
                ? c.action === 'patchVariant' && c.feature === query.variantForFlag
                : true,
          ),
        )
        .map((r) => ({ id: r.id, title: r.title }));
    },

    /** How many requests of the project are in each state. */
    async count(caller: Caller, project: string) {
      const records = await listed(caller, project);
      const n = (state: ChangeRequestState) => records.filter((r) => r.state === state).length;
      return {
        total: records.length,
        applied: n('Applied'),
        rejected: n('Rejected'),
        reviewRequired: n('In review'),
        approved: n('Approved'),
        scheduled: n('Scheduled'),
      };
    },

    /** How many requests wait for the caller: to review (not theirs, not yet approved by them) or to apply. */
    async actionable(caller: Caller, project: string) {
      const records = await listed(caller, project, ['In review', 'Approved']);
      const me = userOf(caller);
      let total = 0;
      for (const r of records) {
        const scope = { project, environment: r.environment };
        if (r.state === 'In review')
          total +=
            !sameUser(r.createdBy, me) &&
            !r.approvals.some((a) => sameUser(a.user, me)) &&
            (await deps.policy.allows(caller, 'APPROVE_CHANGE_REQUEST', scope))
              ? 1
              : 0;
        else total += (await deps.policy.allows(caller, 'APPLY_CHANGE_REQUEST', scope)) ? 1 : 0;
      }
      return { total };
    },

    /** Users who may approve requests in the environment. */
    async availableReviewers(caller: Caller, project: string, environment: string) {
      await deps.policy.require(caller, 'NONE', { project, environment });
      await requireProjectEnvironment(store, project, environment);
      const reviewers = [];
      for (const user of await store.users.list()) {
        const asUser = callerOf(principalOfUser(user));
        if (
          await deps.policy
            .allows(asUser, 'APPROVE_CHANGE_REQUEST', { project, environment })
            .catch(() => false)
        )
          reviewers.push({
            id: user.id,
            name: user.name ?? undefined,
            email: user.email ?? '',
            username: user.username ?? undefined,
            imageUrl: user.imageUrl ?? undefined,
          });
      }
      return { reviewers };
    },

    /**
     * GET /api/admin/search/change-requests: requests across the projects the caller may see, by
     * author, requested reviewer and open/closed, newest first, paged.
     */
    async search(caller: Caller, input: unknown) {
      await deps.policy.require(caller, 'NONE', {});
      const query = parseWith(searchQuerySchema, input);
      const visibility = await deps.policy.visibleProjects(caller);
      const all = (await store.changeRequests.list({ createdByUserId: query.createdBy })).filter(
        (r) =>
          seesProject(visibility, r.project) &&
          visibleTo(caller)(r) &&
          (query.requestedApproverId === undefined || r.reviewers.includes(query.requestedApproverId)) &&
          (query.state === undefined || OPEN_STATES.has(r.state) === (query.state === 'open')),
      );
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 50;
      return { changeRequests: all.slice(offset, offset + limit).map(searchRowOf), total: all.length };
    },
  };
}

export type ChangeRequestReads = ReturnType<typeof createChangeRequestReads>;
