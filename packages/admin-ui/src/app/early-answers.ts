// Its own entry chunk, run by a script tag ahead of the app's (see `earlyAnswersScript` in
// vite.config.ts): a few hundred bytes that start the opened page's first requests as soon as they
// arrive, while the app's code (React, the router, the API client) is still downloading and running,
// which on a fresh load is the first 100-200 ms. The API client takes these answers (`takeEarlyAnswer`)
// when it asks for the same addresses, which `early-start.ts` does as the app's code starts.
// It imports only what imports nothing (which then shares its chunk): another chunk to fetch first
// would put a round trip before the requests.
import { defaultFilters } from '../features/projects/default-filters';

/** GET answers under way, by absolute URL; each is taken once. */
const answers = new Map<string, Promise<Response>>();

/** The pages anyone may open without a session (`public-pages.ts`): they ask for nothing early. */
const PUBLIC_PAGES = new Set(['new-user', 'reset-password', 'signup']);

function ask(url: URL): void {
  const answer = fetch(url, { credentials: 'same-origin' });
  // One never taken (the app went elsewhere) must not report an unhandled rejection.
  answer.catch(() => {});
  answers.set(url.href, answer);
}

/** Whether an address's segments are a route's (`projects/:projectId`: `:` a parameter), as `matchPage`. */
const isRoute = (route: string, segments: readonly string[]): boolean => {
  const parts = route.split('/');
  return parts.length === segments.length && parts.every((p, i) => p.startsWith(':') || p === segments[i]);
};

/**
 * Starts fetching the opened page's code (`<link rel="modulepreload">`), which the entry would only
 * ask for once it has run: the build lists each page's chunks in index.html (`pageCodeMap` in
 * vite.config.ts; not in development).
 */
function preloadPageCode(segments: readonly string[]): void {
  const data = document.getElementById('page-code')?.textContent;
  if (!data) return;
  const routes = JSON.parse(data) as Record<string, string[]>;
  const route = Object.keys(routes).find((r) => isRoute(r, segments));
  for (const href of route ? (routes[route] ?? []) : []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

/**
 * What `early-start.ts` asks for on opening an address: the session on every signed-in page; on a
 * project's page its project, environments and first page of features (as `prefetchProjectPage`
 * does, with the table's default filters). The addresses are written as the API client writes them
 * (`encodeURIComponent`, parameters in order); one that differed would only be asked for twice
 * (the browser tests count the requests).
 */
function askEarly(): void {
  const base = new URL(document.baseURI);
  const api = new URL('../', base);
  const rest = window.location.pathname.startsWith(base.pathname)
    ? window.location.pathname.slice(base.pathname.length)
    : window.location.pathname;
  const segments = rest.split('/').filter(Boolean);
  if (segments.length === 1 && PUBLIC_PAGES.has(segments[0] ?? '')) return;
  ask(new URL('api/admin/user', api));
  // The page's requests go out first: adding the code's preload links takes 3-16 ms.
  askForProjectPage(segments, api);
  preloadPageCode(segments);
}

/** A project page's project, environments and first page of features. */
function askForProjectPage(segments: readonly string[], api: URL): void {
  if (segments.length !== 2 || segments[0] !== 'projects') return;
  let projectId: string;
  try {
    projectId = decodeURIComponent(segments[1] ?? '');
  } catch {
    return;
  }
  const id = encodeURIComponent(projectId);
  ask(new URL(`api/admin/projects/${id}`, api));
  ask(new URL(`api/admin/environments/project/${id}`, api));
  const f = defaultFilters;
  const query = [
    ['project', `IS:${projectId}`],
    ['sortBy', f.sortBy],
    ['sortOrder', f.sortOrder],
    ['offset', String(f.offset)],
    ['limit', String(f.limit)],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v ?? '')}`)
    .join('&');
  ask(new URL(`api/admin/search/features?${query}`, api));
}

/** The answer already under way for this request, once; undefined for any other request. */
export function takeEarlyAnswer(request: Request): Promise<Response> | undefined {
  if (request.method !== 'GET') return undefined;
  const answer = answers.get(request.url);
  answers.delete(request.url);
  return answer;
}

/** Drops the answers not taken: a later request for the same address asks the server again. */
export function forgetEarlyAnswers(): void {
  answers.clear();
}

askEarly();
