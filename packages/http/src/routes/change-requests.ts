import {
  changeInputSchema,
  changeRequestConfigInputSchema,
  commentInputSchema,
  reviewersInputSchema,
  stateInputSchema,
  titleInputSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';

const P = '/api/admin/projects/:projectId/change-requests';
const R = `${P}/:id`;
const tag = 'Change requests';
const id = (raw: string | undefined): number =>
  raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;

/** Change requests: settings, drafts, review and apply (the reference's change-request API). */
export const changeRequestRoutes = defineRoutes([
  {
    method: 'get',
    path: `${P}/config`,
    api: 'admin',
    tag,
    summary: 'Change-request settings of every environment of a project',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.getConfig(caller, params.projectId!),
  },
  {
    method: 'put',
    path: '/api/admin/projects/:projectId/environments/:environment/change-requests/config',
    api: 'admin',
    tag,
    summary: 'Require change requests in an environment of a project (or not), and how many approvals',
    status: 204,
    empty: true,
    body: changeRequestConfigInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.setConfig(caller, params.projectId!, params.environment!, body),
  },
  {
    method: 'post',
    path: '/api/admin/projects/:projectId/environments/:environment/change-requests',
    api: 'admin',
    tag,
    summary: "Add one change or a list to the caller's draft for the environment (creating it)",
    status: 200,
    body: z.union([changeInputSchema, z.array(changeInputSchema)]),
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.addChanges(caller, params.projectId!, params.environment!, body),
  },
  {
    method: 'get',
    path: P,
    api: 'admin',
    tag,
    summary: 'Change requests of a project',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.list(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/draft`,
    api: 'admin',
    tag,
    summary: "The caller's drafts in a project",
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.draft(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/open`,
    api: 'admin',
    tag,
    summary: 'Open change requests of a project',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.open(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/pending`,
    api: 'admin',
    tag,
    summary: 'Pending change requests of a project',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.open(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/pending/:featureName`,
    api: 'admin',
    tag,
    summary: 'Pending change requests with a change to a feature',
    status: 200,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.pendingForFeature(caller, params.projectId!, params.featureName!),
  },
  {
    method: 'get',
    path: `${P}/scheduled`,
    api: 'admin',
    tag,
    summary:
      'Scheduled change requests changing a strategy (strategyId) or the variants of a flag (variantForFlag)',
    status: 200,
    query: z.object({ strategyId: z.string().optional(), variantForFlag: z.string().optional() }),
    handler: ({ flagstaff, caller, params, query }) =>
      flagstaff.changeRequests.scheduled(caller, params.projectId!, {
        ...(typeof query.strategyId === 'string' && { strategyId: query.strategyId }),
        ...(typeof query.variantForFlag === 'string' && { variantForFlag: query.variantForFlag }),
      }),
  },
  {
    method: 'get',
    path: `${P}/count`,
    api: 'admin',
    tag,
    summary: 'How many change requests of a project are in each state',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.count(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/actionable`,
    api: 'admin',
    tag,
    summary: 'How many change requests wait for the caller (to review or apply)',
    status: 200,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.actionable(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/available-reviewers/:environment`,
    api: 'admin',
    tag,
    summary: 'Users who may approve change requests in an environment',
    status: 200,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.availableReviewers(caller, params.projectId!, params.environment!),
  },
  {
    method: 'get',
    path: R,
    api: 'admin',
    tag,
    summary: 'One change request, each change with its conflict if any',
    status: 200,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.get(caller, params.projectId!, id(params.id)),
  },
  {
    method: 'delete',
    path: R,
    api: 'admin',
    tag,
    summary: 'Discard a draft',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.discardDraft(caller, params.projectId!, id(params.id)),
  },
  {
    method: 'put',
    path: `${R}/state`,
    api: 'admin',
    tag,
    summary: 'Send to review, approve, reject, cancel, schedule or apply a change request',
    status: 200,
    body: stateInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.changeState(caller, params.projectId!, id(params.id), body),
  },
  {
    method: 'put',
    path: `${R}/changes/:changeId`,
    api: 'admin',
    tag,
    summary: 'Replace one change (resolves its conflict)',
    status: 200,
    body: changeInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.editChange(
        caller,
        params.projectId!,
        id(params.id),
        id(params.changeId),
        body,
      ),
  },
  {
    method: 'delete',
    path: `${R}/changes/:changeId`,
    api: 'admin',
    tag,
    summary: 'Discard one change',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.changeRequests.discardChange(caller, params.projectId!, id(params.id), id(params.changeId)),
  },
  {
    method: 'put',
    path: `${R}/title`,
    api: 'admin',
    tag,
    summary: 'Rename a change request',
    status: 200,
    empty: true,
    body: titleInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.updateTitle(caller, params.projectId!, id(params.id), body),
  },
  {
    method: 'post',
    path: `${R}/comments`,
    api: 'admin',
    tag,
    summary: 'Comment on a change request',
    status: 200,
    empty: true,
    body: commentInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.addComment(caller, params.projectId!, id(params.id), body),
  },
  {
    method: 'put',
    path: `${R}/reviewers`,
    api: 'admin',
    tag,
    summary: 'Ask users to review a change request',
    status: 200,
    empty: true,
    body: reviewersInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.changeRequests.setReviewers(caller, params.projectId!, id(params.id), body),
  },
  {
    method: 'post',
    path: '/api/admin/events/:id/revert',
    api: 'admin',
    tag,
    summary:
      'Revert a feature event: its inverse against the state now, applied directly or added to a change request where one is required',
    status: 200,
    handler: ({ flagstaff, caller, params }) => flagstaff.changeRequests.revert(caller, id(params.id)),
  },
  {
    method: 'get',
    path: '/api/admin/search/change-requests',
    api: 'admin',
    tag,
    summary: 'Search change requests across projects (createdBy, requestedApproverId, state, offset, limit)',
    status: 200,
    query: z.object({
      createdBy: z.string().optional(),
      requestedApproverId: z.string().optional(),
      state: z.enum(['open', 'closed']).optional(),
      offset: z.string().optional(),
      limit: z.string().optional(),
    }),
    handler: ({ flagstaff, caller, query }) => flagstaff.changeRequests.search(caller, query),
  },
]);
