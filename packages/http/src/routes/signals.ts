import {
  actionSetInputSchema,
  createActionSet,
  createSignalEndpoint,
  createSignalEndpointToken,
  deleteActionSet,
  deleteSignalEndpoint,
  deleteSignalEndpointToken,
  getSignalEndpoint,
  listActionSets,
  listSignalEndpoints,
  listSignals,
  receiveSignal,
  signalEndpointInputSchema,
  signalEndpointTokenInputSchema,
  updateSignalEndpoint,
} from '@flagstaff/core';
import { z } from 'zod';
import { bodyFields, operationRoute } from '../operation-route.js';
import type { Route } from '../route.js';
import { idParam } from './bodies.js';

const endpointId = (id: string) => idParam(id, 'signal endpoint');

/**
 * Signal endpoints: managing them needs ADMIN (the operations of `core/.../signal-operations.ts`
 * and `signal-action-sets.ts`); receiving is authenticated by the endpoint's own tokens.
 */
export const signalRoutes: Route[] = [
  // The endpoint's own token authenticates: the operation reads the Authorization header itself.
  operationRoute({
    method: 'post',
    path: '/api/signal-endpoint/:endpointName',
    operation: receiveSignal,
    input: ({ params, headers, body }) => ({
      endpointName: params.endpointName,
      authorization: headers.authorization,
      payload: body,
    }),
    api: 'public',
    tag: 'Signals',
    status: 202,
    body: z.unknown(),
    bodyRequired: false,
    errors: [401, 429],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/signal-endpoints',
    operation: listSignalEndpoints,
    api: 'admin',
    tag: 'Signals',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/signal-endpoints',
    operation: createSignalEndpoint,
    api: 'admin',
    tag: 'Signals',
    status: 201,
    body: signalEndpointInputSchema,
    errors: [409],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/signal-endpoints/:id',
    operation: getSignalEndpoint,
    input: ({ params }) => ({ id: endpointId(params.id) }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/signal-endpoints/:id',
    operation: updateSignalEndpoint,
    input: ({ params, body }) => ({ ...bodyFields(body), id: endpointId(params.id) }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
    body: signalEndpointInputSchema.partial(),
    errors: [409],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/signal-endpoints/:id',
    operation: deleteSignalEndpoint,
    input: ({ params }) => ({ id: endpointId(params.id) }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/signal-endpoints/:id/tokens',
    operation: createSignalEndpointToken,
    input: ({ params, body }) => ({ ...bodyFields(body), endpointId: endpointId(params.id) }),
    api: 'admin',
    tag: 'Signals',
    status: 201,
    body: signalEndpointTokenInputSchema,
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/signal-endpoints/:id/tokens/:tokenId',
    operation: deleteSignalEndpointToken,
    input: ({ params }) => ({
      endpointId: endpointId(params.id),
      tokenId: idParam(params.tokenId, 'signal endpoint token'),
    }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/signal-endpoints/:id/signals',
    operation: listSignals,
    input: ({ params }) => ({ endpointId: endpointId(params.id) }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/actions',
    operation: listActionSets,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/actions',
    operation: createActionSet,
    // The project comes from the path, as in the reference; a body that is not an object is reported as such.
    input: ({ params, body }) =>
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? { ...body, project: params.projectId }
        : body,
    api: 'admin',
    tag: 'Signals',
    status: 201,
    body: actionSetInputSchema.omit({ project: true }),
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/actions/:actionSetId',
    operation: deleteActionSet,
    input: ({ params }) => ({ id: idParam(params.actionSetId, 'action set') }),
    api: 'admin',
    tag: 'Signals',
    status: 200,
    empty: true,
  }),
];
