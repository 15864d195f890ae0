import { z } from 'zod';
import { type Caller, callerOf } from '../../auth/caller.js';
import { principalOfUser, seesProject } from '../../auth/principal.js';
import {
  availableReviewersSchema,
  type ChangeRequestRecord,
  type ChangeRequestState,
  changeRequestCountSchema,
  changeRequestSearchResultSchema,
  changeRequestSearchSchema,
  changeRequestViewSchema,
  OPEN_STATES,
  scheduledChangeRequestsSchema,
} from '../../domain/change-request.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireProject, requireProjectEnvironment } from '../projects/project-service.js';
import { requireRequest, userOf } from './change-request-records.js';
import { sameUser } from './change-request-states.js';
import { type ChangeRequestView, searchRowOf, viewOf } from './change-request-view.js';

const OPEN = [...OPEN_STATES];
const project = z.string();
const inProject = ({ project }: { project?: string | undefined }) => ({ project });
const views = z.array(changeRequestViewSchema);

/** Others' drafts are their own business: listings show the caller's drafts only. */
const visibleTo = (caller: Caller) => (r: ChangeRequestRecord) =>
  r.state !== 'Draft' || sameUser(r.createdBy, userOf(caller));

async function listed(
  repos: ReadRepositories,
  caller: Caller,
  project: string,
  states?: readonly ChangeRequestState[],
): Promise<ChangeRequestRecord[]> {
  await requireProject(repos, project);
  return (await repos.changeRequests.list({ project, states })).filter(visibleTo(caller));
}

const viewsOf = (repos: ReadRepositories, records: ChangeRequestRecord[]): Promise<ChangeRequestView[]> =>
  Promise.all(records.map((r) => viewOf(repos, r)));

/** A read of a project's requests: any caller who sees the project. */
const listing = (id: string, summary: string, states?: readonly ChangeRequestState[]) =>
  defineOperation({
    id,
    summary,
    kind: 'read',
    permission: 'NONE',
    scope: inProject,
    input: z.object({ project }),
    output: views,
    run: async (input, { repos, caller }) =>
      viewsOf(repos, await listed(repos, caller, input.project, states)),
  });

/** Every request of the project the caller may see. */
export const listChangeRequests = listing('changeRequests.list', 'Change requests of a project');
/** The caller's drafts in the project. */
export const listDraftChangeRequests = listing('changeRequests.drafts', "The caller's drafts in a project", [
  'Draft',
]);
/** Requests still waiting for something: the caller's drafts, in review, approved, scheduled. */
export const listOpenChangeRequests = listing(
  'changeRequests.open',
  'Open change requests of a project',
  OPEN,
);

/** One request, each change with its conflict if any. */
export const getChangeRequest = defineOperation({
  id: 'changeRequests.get',
  summary: 'One change request, each change with its conflict if any',
  kind: 'read',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ project, id: z.number() }),
  output: changeRequestViewSchema,
  run: async (input, { repos }) => viewOf(repos, await requireRequest(repos, input.project, input.id)),
});

/** Open requests with a change to one feature. */
export const listPendingForFeature = defineOperation({
  id: 'changeRequests.pendingForFeature',
  summary: 'Pending change requests with a change to a feature',
  kind: 'read',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ project, feature: z.string() }),
  output: views,
  run: async (input, { repos, caller }) => {
    const records = await listed(repos, caller, input.project, OPEN);
    return viewsOf(
      repos,
      records.filter((r) => r.changes.some((c) => c.feature === input.feature)),
    );
  },
});

/** Scheduled requests changing a strategy or a feature's variants (`{ id, title }` each). */
export const listScheduledChangeRequests = defineOperation({
  id: 'changeRequests.scheduled',
  summary:
    'Scheduled change requests changing a strategy (strategyId) or the variants of a flag (variantForFlag)',
  kind: 'read',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ project, strategyId: z.string().optional(), variantForFlag: z.string().optional() }),
  output: scheduledChangeRequestsSchema,
  run: async (query, { repos, caller }) => {
    const records = await listed(repos, caller, query.project, ['Scheduled']);
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
});

/** How many requests of the project are in each state. */
export const countChangeRequests = defineOperation({
  id: 'changeRequests.count',
  summary: 'How many change requests of a project are in each state',
  kind: 'read',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ project }),
  output: changeRequestCountSchema,
  run: async (input, { repos, caller }) => {
    const records = await listed(repos, caller, input.project);
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
});

/**
 * How many requests wait for the caller: to review (not theirs, not yet approved by them) or to
 * apply. What the caller may do is the policy's answer, asked per request as data, not as a gate.
 */
export const countActionableChangeRequests = defineOperation({
  id: 'changeRequests.actionable',
  summary: 'How many change requests wait for the caller (to review or apply)',
  kind: 'read',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ project }),
  output: z.strictObject({ total: z.number().int() }),
  run: async (input, { deps, repos, caller }) => {
    const records = await listed(repos, caller, input.project, ['In review', 'Approved']);
    const me = userOf(caller);
    let total = 0;
    for (const r of records) {
      const scope = { project: input.project, environment: r.environment };
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
});

/** Users who may approve requests in the environment (the policy's answer for each user). */
export const listAvailableReviewers = defineOperation({
  id: 'changeRequests.availableReviewers',
  summary: 'Users who may approve change requests in an environment',
  kind: 'read',
  permission: 'NONE',
  scope: ({ project, environment }) => ({ project, environment }),
  input: z.object({ project, environment: z.string() }),
  output: availableReviewersSchema,
  run: async ({ project, environment }, { deps, repos }) => {
    await requireProjectEnvironment(repos, project, environment);
    const reviewers = [];
    for (const user of await repos.users.list()) {
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
});

/**
 * `GET /api/admin/search/change-requests`: requests across the projects the caller may see, by
 * author, requested reviewer and open/closed, newest first, paged.
 */
export const searchChangeRequests = defineOperation({
  id: 'changeRequests.search',
  summary: 'Search change requests across projects (createdBy, requestedApproverId, state, offset, limit)',
  kind: 'read',
  permission: 'NONE',
  input: changeRequestSearchSchema,
  output: changeRequestSearchResultSchema,
  run: async (query, { deps, repos, caller }) => {
    const visibility = await deps.policy.visibleProjects(caller);
    const all = (await repos.changeRequests.list({ createdByUserId: query.createdBy })).filter(
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
});
