import { searchFeatures } from '@flagstaff/core';
import { z } from 'zod';
import { operationRoute } from '../operation-route.js';

/**
 * The admin UI's feature table: filters, sorting and paging done by the server (operation
 * `features.search` of `core/src/services/features/feature-search-service.ts`).
 */
export const featureSearchRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/search/features',
    operation: searchFeatures,
    input: ({ query }) => query,
    api: 'admin',
    tag: 'Search',
    summary: 'Search features: filters, sorting and paging done by the server',
    status: 200,
    query: z.object({
      query: z.string().optional(),
      project: z.string().optional(),
      tag: z.string().optional(),
      type: z.string().optional(),
      state: z.string().optional(),
      lifecycle: z.string().optional(),
      status: z.string().optional(),
      segment: z.string().optional(),
      createdAt: z.string().optional(),
      lastSeenAt: z.string().optional(),
      archived: z.string().optional(),
      sortBy: z.string().optional(),
      sortOrder: z.enum(['asc', 'desc']).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
  }),
];
