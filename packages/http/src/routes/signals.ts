import {
  actionSetInputSchema,
  signalEndpointInputSchema,
  signalEndpointTokenInputSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const S = '/api/admin/signal-endpoints';
const A = '/api/admin/projects/:projectId/actions';

/** Signal endpoints: managing them needs ADMIN; receiving is authenticated by the endpoint's own tokens. */
export const signalRoutes = defineRoutes([
  {
    method: 'post',
    path: '/api/signal-endpoint/:endpointName',
    api: 'public',
    tag: 'Signals',
    summary: 'Send a signal',
    status: 202,
    body: z.unknown(),
    bodyRequired: false,
    errors: [401, 429],
    handler: ({ flagstaff, params, body, request }) =>
      flagstaff.signals.receive(params.endpointName!, request.headers.authorization, body),
  },
  {
    method: 'get',
    path: S,
    api: 'admin',
    tag: 'Signals',
    summary: 'List signal endpoints',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      signalEndpoints: await flagstaff.signals.endpoints.list(caller),
    }),
  },
  {
    method: 'post',
    path: S,
    api: 'admin',
    tag: 'Signals',
    summary: 'Create a signal endpoint',
    status: 201,
    body: signalEndpointInputSchema,
    errors: [409],
    handler: ({ flagstaff, caller, body }) => flagstaff.signals.endpoints.create(caller, body),
  },
  {
    method: 'get',
    path: `${S}/:id`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Get a signal endpoint',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      flagstaff.signals.endpoints.get(caller, idParam(params.id, 'signal endpoint')),
  },
  {
    method: 'put',
    path: `${S}/:id`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Update a signal endpoint',
    status: 200,
    body: signalEndpointInputSchema.partial(),
    errors: [409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.signals.endpoints.update(caller, idParam(params.id, 'signal endpoint'), body),
  },
  {
    method: 'delete',
    path: `${S}/:id`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Delete a signal endpoint',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.signals.endpoints.delete(caller, idParam(params.id, 'signal endpoint')),
  },
  {
    method: 'post',
    path: `${S}/:id/tokens`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Create a signal endpoint token',
    status: 201,
    body: signalEndpointTokenInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.signals.tokens.create(caller, idParam(params.id, 'signal endpoint'), body),
  },
  {
    method: 'delete',
    path: `${S}/:id/tokens/:tokenId`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Delete a signal endpoint token',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.signals.tokens.delete(
        caller,
        idParam(params.id, 'signal endpoint'),
        idParam(params.tokenId, 'signal endpoint token'),
      ),
  },
  {
    method: 'get',
    path: `${S}/:id/signals`,
    api: 'admin',
    tag: 'Signals',
    summary: 'List the signals an endpoint received',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      signals: await flagstaff.signals.listSignals(caller, idParam(params.id, 'signal endpoint')),
    }),
  },
  {
    method: 'get',
    path: A,
    api: 'admin',
    tag: 'Signals',
    summary: 'List the action sets of a project',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      actions: (await flagstaff.signals.actionSets.list(caller)).filter(
        (a) => a.project === params.projectId,
      ),
    }),
  },
  {
    method: 'post',
    path: A,
    api: 'admin',
    tag: 'Signals',
    summary: 'Create an action set',
    status: 201,
    body: actionSetInputSchema.omit({ project: true }),
    handler: ({ flagstaff, caller, params, body }) =>
      // The project comes from the path, as in the reference; a body that is not an object still reaches the service.
      flagstaff.signals.actionSets.create(
        caller,
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? { ...body, project: params.projectId }
          : body,
      ),
  },
  {
    method: 'delete',
    path: `${A}/:actionSetId`,
    api: 'admin',
    tag: 'Signals',
    summary: 'Delete an action set',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.signals.actionSets.delete(caller, idParam(params.actionSetId, 'action set')),
  },
]);
