import { addonInputSchema, NONE } from '@flagstaff/core';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const A = '/api/admin/addons';

/** Addons: forwarding events to external providers. */
export const addonRoutes = defineRoutes([
  {
    method: 'get',
    path: A,
    api: 'admin',
    permission: NONE,
    tag: 'Addons',
    summary: 'List addons and providers',
    status: 200,
    handler: ({ flagstaff }) => flagstaff.addons.list(),
  },
  {
    method: 'post',
    path: A,
    api: 'admin',
    permission: 'CREATE_ADDON',
    tag: 'Addons',
    summary: 'Create an addon',
    status: 200,
    body: addonInputSchema,
    handler: ({ flagstaff, actor, body }) => flagstaff.addons.create(actor, body),
  },
  {
    method: 'get',
    path: `${A}/:id`,
    api: 'admin',
    permission: NONE,
    tag: 'Addons',
    summary: 'Get an addon',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.addons.get(idParam(params.id, 'addon')),
  },
  {
    method: 'put',
    path: `${A}/:id`,
    api: 'admin',
    permission: 'UPDATE_ADDON',
    tag: 'Addons',
    summary: 'Update an addon',
    status: 200,
    body: addonInputSchema,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.addons.update(actor, idParam(params.id, 'addon'), body),
  },
  {
    method: 'delete',
    path: `${A}/:id`,
    api: 'admin',
    permission: 'DELETE_ADDON',
    tag: 'Addons',
    summary: 'Delete an addon',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) => flagstaff.addons.delete(actor, idParam(params.id, 'addon')),
  },
]);
