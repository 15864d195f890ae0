import type { Route } from '../route.js';
import { RouteMatcher } from '../route-matcher.js';
import { allRoutes } from '../routes/index.js';

/** Where a response broke its route's declared output schema. */
export class ResponseSchemaError extends Error {
  override name = 'ResponseSchemaError';
}

/**
 * The strict response check of the HTTP test suite: every success answer of a route that declares
 * an output schema must satisfy it (strict object schemas refuse extra properties too), or the
 * request fails the test. Production never runs it: the schemas describe, tests enforce.
 */
export function createResponseCheck(routes: readonly Route[] = allRoutes()) {
  const matcher = new RouteMatcher<Route>();
  for (const route of routes) matcher.add(route.method, route.path, route);
  /** How many answers were checked (so a test can prove the check ran). */
  let checked = 0;
  return {
    get checked() {
      return checked;
    },
    /** Throws a ResponseSchemaError when a success body does not match the route's output schema. */
    check(method: string, path: string, status: number, body: unknown): void {
      if (method.toUpperCase() === 'HEAD') return;
      const found = matcher.match(method, path.split('?')[0]!);
      const route = found?.value;
      if (!route?.response || route.empty || status !== route.status) return;
      checked++;
      const result = route.response.safeParse(body);
      if (result.success) return;
      const problems = result.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
        .join('; ');
      throw new ResponseSchemaError(
        `${method.toUpperCase()} ${path} answered ${status} with a body its output schema refuses: ${problems}`,
      );
    },
  };
}
