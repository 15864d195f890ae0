import { validateConstraint, validateConstraintSchema } from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/** Checking a constraint on its own (the strategy editor asks before saving). */
export const constraintRoutes = [
  operationRoute({
    method: 'post',
    path: '/api/admin/constraints/validate',
    operation: validateConstraint,
    api: 'admin',
    tag: 'Strategies',
    status: 204,
    empty: true,
    body: validateConstraintSchema,
  }),
];
