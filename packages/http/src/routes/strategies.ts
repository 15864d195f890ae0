import { patchDocumentSchema, strategyConfigSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes, type RouteContext } from '../route.js';

const S = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies';
const at = ({ params }: RouteContext) => ({
  project: params.projectId!,
  feature: params.featureName!,
  environment: params.environment!,
});

/** Strategies of a feature in an environment. */
export const strategyRoutes = defineRoutes([
  {
    method: 'get',
    path: S,
    api: 'admin',
    tag: 'Strategies',
    summary: 'List the strategies of a feature environment',
    status: 200,
    handler: (ctx) => ctx.flagstaff.strategies.list(ctx.caller, at(ctx)),
  },
  {
    method: 'post',
    path: S,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Add a strategy',
    status: 200,
    body: strategyConfigSchema,
    handler: (ctx) => ctx.flagstaff.strategies.add(ctx.caller, at(ctx), ctx.body),
  },
  {
    method: 'post',
    path: `${S}/set-sort-order`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Reorder strategies',
    status: 200,
    empty: true,
    body: z.array(z.object({ id: z.string(), sortOrder: z.number().int() })),
    handler: (ctx) => ctx.flagstaff.strategies.reorder(ctx.caller, at(ctx), ctx.body),
  },
  {
    method: 'get',
    path: `${S}/:strategyId`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Get a strategy',
    status: 200,
    handler: (ctx) => ctx.flagstaff.strategies.get(ctx.caller, at(ctx), ctx.params.strategyId!),
  },
  {
    method: 'put',
    path: `${S}/:strategyId`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Replace a strategy',
    status: 200,
    body: strategyConfigSchema,
    handler: (ctx) => ctx.flagstaff.strategies.update(ctx.caller, at(ctx), ctx.params.strategyId!, ctx.body),
  },
  {
    method: 'patch',
    path: `${S}/:strategyId`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Patch a strategy',
    status: 200,
    body: patchDocumentSchema,
    handler: (ctx) => ctx.flagstaff.strategies.patch(ctx.caller, at(ctx), ctx.params.strategyId!, ctx.body),
  },
  {
    method: 'delete',
    path: `${S}/:strategyId`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Delete a strategy',
    status: 200,
    empty: true,
    handler: (ctx) => ctx.flagstaff.strategies.delete(ctx.caller, at(ctx), ctx.params.strategyId!),
  },
]);
