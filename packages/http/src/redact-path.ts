import { allRoutes } from './routes/index.js';

/** What a secret in a logged path becomes. */
export const REDACTED = '<redacted>';

/**
 * Route params that carry a secret: Unleash's paths put API token secrets
 * (`/api/admin/api-tokens/:token`) and invite link secrets (`/invite/:token/signup`) in the path.
 */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['token']);

/** An API token secret's shape (`project:environment.secret`), wherever it shows up in a path. */
const API_TOKEN_SHAPE = /^[^:]+:[^.]+\.[\w-]{8,}$/;

type Segment = { literal: string } | { param: string };

/**
 * Each secret-bearing route path up to its secret, e.g. `/invite/:token`: a path that starts the
 * same way has the secret at that place whatever follows and whichever method was asked for, so
 * a 404 or 405 is redacted too.
 */
const SECRET_PREFIXES: readonly Segment[][] = (() => {
  const prefixes = new Map<string, Segment[]>();
  for (const route of allRoutes()) {
    const parts = route.path.split('/');
    const last = parts.findLastIndex((p) => p.startsWith(':') && SECRET_PARAMS.has(p.slice(1)));
    if (last < 0) continue;
    const prefix = parts.slice(0, last + 1).filter((p) => p !== '');
    prefixes.set(
      prefix.join('/').toLowerCase(),
      prefix.map((p) => (p.startsWith(':') ? { param: p.slice(1) } : { literal: p.toLowerCase() })),
    );
  }
  return [...prefixes.values()];
})();

/**
 * The request path as it may be logged: secrets the route table puts in paths, and anything shaped
 * like an API token secret, become `<redacted>`; the query string is dropped (reset and invite
 * links carry theirs there). `mount` is where the API is mounted ('' at the root).
 */
export function redactPath(url: string, mount = ''): string {
  const path = url.split('?')[0] ?? '';
  const base = mount.replace(/\/+$/, '');
  const mounted = base !== '' && path.toLowerCase().startsWith(base.toLowerCase());
  const segments = (mounted ? path.slice(base.length) : path).split('/');
  // Empty segments ("//") are skipped when matching, so they cannot shift a secret out of place.
  const filled = segments.flatMap((segment, index) => (segment === '' ? [] : [index]));
  for (const prefix of SECRET_PREFIXES) {
    if (filled.length < prefix.length) continue;
    const matches = prefix.every((part, i) => {
      const segment = segments[filled[i] ?? -1] ?? '';
      return 'literal' in part ? safeDecode(segment).toLowerCase() === part.literal : true;
    });
    if (matches)
      prefix.forEach((part, i) => {
        const index = filled[i];
        if ('param' in part && SECRET_PARAMS.has(part.param) && index !== undefined)
          segments[index] = REDACTED;
      });
  }
  const redacted = segments.map((s) => (API_TOKEN_SHAPE.test(safeDecode(s)) ? REDACTED : s)).join('/');
  return mounted ? `${path.slice(0, base.length)}${redacted}` : redacted;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
