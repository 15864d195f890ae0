import { addonInputSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const A = '/api/admin/addons';

/** Addons: forwarding events to external providers. */
export const addonRoutes = defineRoutes([
  {
    method: 'get',
    path: A,
    api: 'admin',
    tag: 'Addons',
    summary: 'List addons and providers',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.addons.list(caller),
  },
  {
    method: 'post',
    path: A,
    api: 'admin',
    tag: 'Addons',
    summary: 'Create an addon',
    status: 200,
    body: addonInputSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.addons.create(caller, body),
  },
  {
    method: 'get',
    path: `${A}/:id`,
    api: 'admin',
    tag: 'Addons',
    summary: 'Get an addon',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.addons.get(caller, idParam(params.id, 'addon')),
  },
  {
    method: 'put',
    path: `${A}/:id`,
    api: 'admin',
    tag: 'Addons',
    summary: 'Update an addon',
    status: 200,
    body: addonInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.addons.update(caller, idParam(params.id, 'addon'), body),
  },
  {
    method: 'delete',
    path: `${A}/:id`,
    api: 'admin',
    tag: 'Addons',
    summary: 'Delete an addon',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) => flagstaff.addons.delete(caller, idParam(params.id, 'addon')),
  },
]);
