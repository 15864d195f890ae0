import type { HttpMethod } from './route.js';

/** A route found for a request: what was registered for the path and method, and its params. */
export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  /** Where any param goes at this place; each route names its params itself. */
  param: Node<T> | null;
  methods: Map<HttpMethod, { value: T; names: string[] }>;
}

const newNode = <T>(): Node<T> => ({ literals: new Map(), param: null, methods: new Map() });

/** Splits a path into its segments, ignoring one trailing slash as Express does by default. */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function decodeParam(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Matches request paths against `/literal/:param` route paths in one walk of a segment tree,
 * instead of Express's test of every registered route in turn. Literal segments match
 * case-insensitively and win over a param at the same place (falling back to the param when the
 * literal branch leads nowhere); params are URI-decoded; HEAD falls back to GET.
 */
export class RouteMatcher<T> {
  readonly #root: Node<T> = newNode();

  add(method: HttpMethod, path: string, value: T): void {
    let node = this.#root;
    const names: string[] = [];
    for (const segment of segmentsOf(path)) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (!/^\w+$/.test(name)) throw new Error(`Unsupported route param "${segment}" in ${path}`);
        names.push(name);
        node.param ??= newNode();
        node = node.param;
      } else {
        if (/[*?()+{}]/.test(segment)) throw new Error(`Unsupported route segment "${segment}" in ${path}`);
        const key = segment.toLowerCase();
        let next = node.literals.get(key);
        if (!next) {
          next = newNode();
          node.literals.set(key, next);
        }
        node = next;
      }
    }
    if (node.methods.has(method))
      throw new Error(`Route ${method.toUpperCase()} ${path} is registered twice`);
    node.methods.set(method, { value, names });
  }

  /** The route for a method and path, or null (HEAD also finds GET routes). */
  match(method: string, path: string): RouteMatch<T> | null {
    const segments = segmentsOf(path);
    const verb = method.toLowerCase() as HttpMethod;
    const valueAt = (node: Node<T>) =>
      node.methods.get(verb) ?? ((verb as string) === 'head' ? node.methods.get('get') : undefined);
    const raw: string[] = [];
    const node = this.#walk(this.#root, segments, 0, raw, (n) => valueAt(n) !== undefined);
    const entry = node && valueAt(node);
    if (!entry) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < raw.length; i++) {
      const decoded = decodeParam(raw[i] as string);
      if (decoded === null) return null;
      params[entry.names[i] as string] = decoded;
    }
    return { value: entry.value, params };
  }

  /** The methods some route answers at this path (for OPTIONS' `Allow`), empty when none. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    const collect = (node: Node<T>) => {
      for (const m of node.methods.keys()) methods.add(m.toUpperCase());
      return false;
    };
    this.#walk(this.#root, segmentsOf(path), 0, [], collect);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  /** The first node (literals before params) for the whole path that `accept`s, collecting raw param values on the way. */
  #walk(
    node: Node<T>,
    segments: string[],
    i: number,
    raw: string[],
    accept: (node: Node<T>) => boolean,
  ): Node<T> | null {
    if (i === segments.length) return accept(node) ? node : null;
    const segment = segments[i] as string;
    const literal = node.literals.get(segment.toLowerCase());
    if (literal) {
      const end = this.#walk(literal, segments, i + 1, raw, accept);
      if (end) return end;
    }
    if (node.param && segment !== '') {
      raw.push(segment);
      const end = this.#walk(node.param, segments, i + 1, raw, accept);
      if (end) return end;
      raw.pop();
    }
    return null;
  }
}
