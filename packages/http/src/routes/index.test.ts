import { describe, expect, it } from 'vitest';
import type { Route } from '../route.js';
import { allRoutes } from './index.js';

/** A route path as a regular expression matching the request paths it answers (params: one segment). */
const pattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
    'i',
  );

/** A request path for a route, its params filled with a value no literal segment uses. */
const samplePath = (route: Route): string => route.path.replace(/:[A-Za-z0-9_]+/g, 'sample-param');

describe('the route table', () => {
  it('holds no route an earlier parameterised route of the same method would answer (the order only shapes the document)', () => {
    const routes = allRoutes();
    const swallowed: string[] = [];
    routes.forEach((route, i) => {
      const path = samplePath(route);
      const first = routes.findIndex((r) => r.method === route.method && pattern(r.path).test(path));
      if (first !== i) swallowed.push(`${route.method} ${route.path} by ${routes[first]!.path}`);
    });
    expect(swallowed).toEqual([]);
  });

  it('reaches every validate route rather than a parameterised neighbour', () => {
    const routes = allRoutes();
    for (const path of [
      '/api/admin/features/validate',
      '/api/admin/projects/validate',
      '/api/admin/context/validate',
      '/api/admin/segments/validate',
      '/api/admin/tag-types/validate',
    ]) {
      const first = routes.find((r) => r.method === 'post' && pattern(r.path).test(path));
      expect(first?.path, path).toBe(path);
    }
  });

  it('the check itself sees a swallowed route', () => {
    const param = { method: 'post', path: '/api/admin/things/:id' } as Route;
    const literal = { method: 'post', path: '/api/admin/things/validate' } as Route;
    expect(pattern(param.path).test(samplePath(literal))).toBe(true);
    expect(pattern(literal.path).test(samplePath(param))).toBe(false);
  });
});
