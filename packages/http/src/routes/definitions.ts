import { featureTypeLifetimeSchema, strategyDefinitionSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const S = '/api/admin/strategies';

/** Strategy definitions, context-field usage and feature types with their lifetimes. */
export const definitionRoutes = defineRoutes([
  {
    method: 'get',
    path: S,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Strategy definitions: built-ins and custom strategies, with their parameters',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.definitions.strategies.list(caller),
  },
  {
    method: 'post',
    path: S,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Define a custom strategy',
    status: 201,
    body: strategyDefinitionSchema,
    errors: [400, 409],
    handler: ({ flagstaff, caller, body }) => flagstaff.definitions.strategies.create(caller, body),
  },
  {
    method: 'get',
    path: `${S}/:name`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'One strategy definition',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.definitions.strategies.get(caller, params.name!),
  },
  {
    method: 'put',
    path: `${S}/:name`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Change a custom strategy’s description and parameters',
    status: 200,
    body: strategyDefinitionSchema.partial({ name: true }),
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.definitions.strategies.update(caller, params.name!, body),
  },
  {
    method: 'delete',
    path: `${S}/:name`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Delete a custom strategy no feature uses',
    status: 200,
    empty: true,
    errors: [400, 404, 409],
    handler: ({ flagstaff, caller, params }) => flagstaff.definitions.strategies.delete(caller, params.name!),
  },
  {
    method: 'post',
    path: `${S}/:strategyName/deprecate`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Deprecate a strategy (the editor stops offering it)',
    status: 200,
    empty: true,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.definitions.strategies.deprecate(caller, params.strategyName!),
  },
  {
    method: 'post',
    path: `${S}/:strategyName/reactivate`,
    api: 'admin',
    tag: 'Strategies',
    summary: 'Reactivate a deprecated strategy',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.definitions.strategies.reactivate(caller, params.strategyName!),
  },
  {
    method: 'get',
    path: '/api/admin/context/:contextField/strategies',
    api: 'admin',
    tag: 'Context',
    summary: 'Feature strategies whose constraints use a context field',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.definitions.strategies.usingContextField(caller, params.contextField!),
  },
  {
    method: 'get',
    path: '/api/admin/feature-types',
    api: 'admin',
    tag: 'Feature types',
    summary: 'Feature types and their expected lifetimes',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.definitions.featureTypes.list(caller),
  },
  {
    method: 'put',
    path: '/api/admin/feature-types/:id/lifetime',
    api: 'admin',
    tag: 'Feature types',
    summary: 'Set the lifetime after which features of a type are potentially stale (null: never)',
    status: 200,
    body: featureTypeLifetimeSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.definitions.featureTypes.setLifetime(caller, params.id!, body),
  },
]);
