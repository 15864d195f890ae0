import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { HttpMethod } from './route.js';

/** A route found for a request: what was registered for the path and method, and its params. */
export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

/** The methods routes are registered with, in `Allow` order. */
const METHODS: readonly HTTPMethod[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];

/**
 * Matches request paths against `/literal/:param` route paths with find-my-way (Fastify's radix
 * tree router). Literal segments match case-insensitively and win over a param at the same place
 * (falling back to the param when the literal branch leads nowhere); one trailing slash is
 * ignored, as Express does by default; params are URI-decoded, and a malformed escape or an empty
 * param matches nothing; HEAD falls back to GET.
 */
export class RouteMatcher<T> {
  readonly #router = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Feature names, tag values and the like may be long; find-my-way's default caps params at 100.
    maxParamLength: 65_535,
  });

  add(method: HttpMethod, path: string, value: T): void {
    for (const segment of path.split('/')) {
      if (segment.startsWith(':')) {
        if (!/^\w+$/.test(segment.slice(1)))
          throw new Error(`Unsupported route param "${segment}" in ${path}`);
      } else if (/[*?()+{}]/.test(segment))
        throw new Error(`Unsupported route segment "${segment}" in ${path}`);
    }
    const verb = method.toUpperCase() as HTTPMethod;
    try {
      this.#router.on(verb, path, () => undefined, { value });
    } catch (error) {
      throw new Error(`Route ${verb} ${path} is registered twice`, { cause: error });
    }
  }

  /** The route for a method and path, or null (HEAD also finds GET routes). */
  match(method: string, path: string): RouteMatch<T> | null {
    const verb = method.toUpperCase() as HTTPMethod;
    const found = this.#router.find(verb, path) ?? (verb === 'HEAD' ? this.#router.find('GET', path) : null);
    if (found === null) return null;
    const params: Record<string, string> = {};
    for (const name in found.params) {
      const value = found.params[name];
      if (value === undefined || value === '') return null;
      params[name] = value;
    }
    return { value: (found.store as { value: T }).value, params };
  }

  /** The methods some route answers at this path (for OPTIONS' `Allow`), empty when none. */
  allowed(path: string): string[] {
    const methods = METHODS.filter((method) => this.match(method, path) !== null);
    if (methods.includes('GET')) methods.push('HEAD');
    return methods.sort();
  }
}
