import { describe, expect, it } from 'vitest';
import { RouteMatcher } from './route-matcher.js';
import { allRoutes } from './routes/index.js';

const matcherOf = (...paths: [method: 'get' | 'post' | 'put', path: string][]) => {
  const matcher = new RouteMatcher<string>();
  for (const [method, path] of paths) matcher.add(method, path, `${method} ${path}`);
  return matcher;
};

describe('RouteMatcher', () => {
  it('finds a route by method and path and names its params', () => {
    const m = matcherOf(['get', '/projects/:projectId/features/:featureName']);
    expect(m.match('GET', '/projects/default/features/f1')).toEqual({
      value: 'get /projects/:projectId/features/:featureName',
      params: { projectId: 'default', featureName: 'f1' },
    });
    expect(m.match('POST', '/projects/default/features/f1')).toBeNull();
    expect(m.match('GET', '/projects/default/features')).toBeNull();
    expect(m.match('GET', '/projects/default/features/f1/extra')).toBeNull();
  });

  it('prefers a literal segment over a param, and falls back to the param when the literal leads nowhere', () => {
    const m = matcherOf(
      ['get', '/features/:featureName'],
      ['post', '/features/validate'],
      ['get', '/features/:featureName/tags'],
    );
    expect(m.match('POST', '/features/validate')?.value).toBe('post /features/validate');
    // No GET at the literal: the param route answers, as Express's in-order matching would.
    expect(m.match('GET', '/features/validate')).toEqual({
      value: 'get /features/:featureName',
      params: { featureName: 'validate' },
    });
    expect(m.match('GET', '/features/validate/tags')?.params).toEqual({ featureName: 'validate' });
  });

  it('lets routes name the param at the same place differently', () => {
    const m = matcherOf(['get', '/tags/:type'], ['get', '/tags/:type/:value'], ['put', '/tags/:name']);
    expect(m.match('GET', '/tags/simple')?.params).toEqual({ type: 'simple' });
    expect(m.match('PUT', '/tags/simple')?.params).toEqual({ name: 'simple' });
    expect(m.match('GET', '/tags/simple/v1')?.params).toEqual({ type: 'simple', value: 'v1' });
  });

  it('decodes params, and rejects a malformed escape rather than throwing', () => {
    const m = matcherOf(['get', '/features/:featureName']);
    expect(m.match('GET', '/features/a%20b%2Fc')?.params).toEqual({ featureName: 'a b/c' });
    expect(m.match('GET', '/features/%E0%A4%A')).toBeNull();
  });

  it('ignores one trailing slash and the case of literals, as Express does by default', () => {
    const m = matcherOf(['get', '/api/admin/projects']);
    expect(m.match('GET', '/api/admin/projects/')?.value).toBe('get /api/admin/projects');
    expect(m.match('GET', '/API/Admin/Projects')?.value).toBe('get /api/admin/projects');
    expect(m.match('GET', '/api/admin/projects//')).toBeNull();
  });

  it('never matches an empty param segment', () => {
    const m = matcherOf(['get', '/features/:featureName/tags']);
    expect(m.match('GET', '/features//tags')).toBeNull();
  });

  it('answers HEAD with the GET route and lists the allowed methods of a path', () => {
    const m = matcherOf(['get', '/segments/:id'], ['put', '/segments/:id']);
    expect(m.match('HEAD', '/segments/3')?.value).toBe('get /segments/:id');
    expect(m.allowed('/segments/3')).toEqual(['GET', 'HEAD', 'PUT']);
    expect(m.allowed('/nothing')).toEqual([]);
  });

  it('refuses a route registered twice and path syntax it does not understand', () => {
    const m = matcherOf(['get', '/a/:b']);
    expect(() => m.add('get', '/a/:c', 'again')).toThrow(/registered twice/);
    expect(() => m.add('get', '/files/*rest', 'wild')).toThrow(/Unsupported route segment/);
  });

  it('finds every route of the API at its own path', () => {
    const m = new RouteMatcher<(typeof routes)[number]>();
    const routes = allRoutes();
    for (const route of routes) m.add(route.method, route.path, route);
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, 'x-$1');
      const found = m.match(route.method.toUpperCase(), path);
      expect(found?.value, `${route.method} ${route.path}`).toBe(route);
      for (const [name, value] of Object.entries(found?.params ?? {})) expect(value).toBe(`x-${name}`);
    }
  });
});
