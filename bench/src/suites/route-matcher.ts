// Route matching: Flagstaff's RouteMatcher (packages/http/src/route-matcher.ts) against find-my-way
// (Fastify's radix router) and rou3 (h3's), each holding the whole route table, matching a mix of
// request paths weighted like real traffic (SDK polls first, then admin calls and misses).
// RouteMatcher was a hand-written segment tree until it measured 542 ns/match here against
// find-my-way's 165 and rou3's 103; it now wraps find-my-way (rou3 has no case-insensitive
// literals with case-kept params, which the Express-compatible paths need).
import { performance } from 'node:perf_hooks';
import { allRoutes } from '@flagstaff/http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { addRoute, createRouter, findRoute } from 'rou3';
import { RouteMatcher } from '../../../packages/http/src/route-matcher.js';

/** Request paths with how often each comes in the mix. */
const REQUESTS: [method: string, path: string, weight: number][] = [
  ['GET', '/api/client/features', 40],
  ['POST', '/api/client/metrics', 10],
  ['GET', '/api/client/delta', 5],
  ['GET', '/api/frontend', 10],
  ['GET', '/api/admin/projects/default/features/feature-0042', 5],
  ['POST', '/api/admin/projects/default/features/feature-0042/environments/development/strategies', 5],
  [
    'PUT',
    '/api/admin/projects/default/features/feature-0042/environments/development/strategies/1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    5,
  ],
  ['POST', '/api/admin/projects/default/features/feature-0042/environments/development/on', 5],
  ['GET', '/api/admin/events', 3],
  ['GET', '/api/admin/features/feature%200042', 2],
  ['GET', '/api/admin/no/such/route', 5],
  ['GET', '/health-not-here', 5],
];

const ROUNDS = 7;
const CALLS = 300_000;

function mix(): [string, string][] {
  const out: [string, string][] = [];
  for (const [method, path, weight] of REQUESTS) for (let i = 0; i < weight; i++) out.push([method, path]);
  return out;
}

function time(label: string, match: (method: string, path: string) => unknown, found: number): void {
  const requests = mix();
  let hits = 0;
  for (const [method, path] of requests) if (match(method, path)) hits++;
  if (hits !== found) throw new Error(`${label} found ${hits} of the mix's routes, expected ${found}`);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    for (let i = 0; i < CALLS; i++) {
      const [method, path] = requests[i % requests.length]!;
      match(method, path);
    }
    rounds.push(((performance.now() - t) * 1e6) / CALLS);
  }
  rounds.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(12)} ${rounds[ROUNDS >> 1]!.toFixed(0).padStart(5)} ns/match (median of ${ROUNDS} rounds, best ${rounds[0]!.toFixed(0)} ns)`,
  );
}

export default async function routeMatcherBench(): Promise<void> {
  const routes = allRoutes();
  const ours = new RouteMatcher<unknown>();
  const fmw = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true });
  const rou = createRouter<unknown>();
  for (const route of routes) {
    ours.add(route.method, route.path, route);
    fmw.on(route.method.toUpperCase() as HTTPMethod, route.path, () => undefined, route);
    addRoute(rou, route.method.toUpperCase(), route.path, route);
  }
  const found = mix().filter(([method, path]) => ours.match(method, path) !== null).length;
  console.log(
    `${routes.length} routes; ${REQUESTS.length} request paths, ${found} of ${mix().length} in the mix found`,
  );
  time('flagstaff', (method, path) => ours.match(method, path), found);
  time('find-my-way', (method, path) => fmw.find(method as HTTPMethod, path), found);
  time('rou3', (method, path) => findRoute(rou, method, path), found);
}
