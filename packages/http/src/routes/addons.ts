import { addonInputSchema, deliveryLogQuerySchema, deliveryQueueQuerySchema } from '@flagstaff/core';
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
    method: 'get',
    path: `${A}/:id/events`,
    api: 'admin',
    tag: 'Addons',
    summary: "An addon's delivery log: every attempt, newest first (kept 7 days by default)",
    status: 200,
    query: deliveryLogQuerySchema,
    errors: [404],
    handler: ({ flagstaff, caller, params, query }) =>
      flagstaff.addons.deliveryLog(caller, idParam(params.id, 'addon'), query),
  },
  {
    method: 'get',
    path: `${A}/:id/deliveries`,
    api: 'admin',
    tag: 'Addons',
    summary: "An addon's queue: events waiting (pending) or whose retries ran out (parked)",
    status: 200,
    query: deliveryQueueQuerySchema,
    errors: [404],
    handler: ({ flagstaff, caller, params, query }) =>
      flagstaff.addons.deliveries(caller, idParam(params.id, 'addon'), query),
  },
  {
    method: 'post',
    path: `${A}/:id/deliveries/replay`,
    api: 'admin',
    tag: 'Addons',
    summary: 'Replay every parked event of an addon (each gets a fresh retry window)',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.addons.replay(caller, idParam(params.id, 'addon'), null),
  },
  {
    method: 'post',
    path: `${A}/:id/deliveries/:eventId/replay`,
    api: 'admin',
    tag: 'Addons',
    summary: 'Replay one parked event of an addon',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.addons.replay(caller, idParam(params.id, 'addon'), idParam(params.eventId, 'parked event')),
  },
  {
    method: 'post',
    path: `${A}/:id/signing-secret`,
    api: 'admin',
    tag: 'Addons',
    summary: "Rotate a webhook's signing secret (answered once; the previous one signs too for 24 hours)",
    status: 200,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.addons.rotateSigningSecret(caller, idParam(params.id, 'addon')),
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
