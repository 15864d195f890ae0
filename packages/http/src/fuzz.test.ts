// Every route of the route table, fuzzed with requests generated from and against its zod schemas
// (fast-check, a fixed seed): no answer is a 5xx, every error body is { id, name, message }, and a
// refused request changes nothing stored. All failures are collected and listed, not just the first.

import { request } from 'node:http';
import { SYSTEM } from '@flagstaff/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from './routes/index.js';
import { seedFuzzData, storeSnapshot } from './testing/fuzz-seed.js';
import { startTestServer, type TestServer, testAdapter } from './testing/harness.js';
import { type FuzzCase, routeCases } from './testing/route-arbitraries.js';

const SEED = Number(process.env.FLAGSTAFF_FUZZ_SEED ?? 20261124);
// The node adapter takes the full run; the other adapters, which share the handler, a smaller one.
const RUNS_PER_ROUTE = Number(process.env.FLAGSTAFF_FUZZ_RUNS ?? (testAdapter() === 'node' ? 24 : 6));

let s: TestServer;
beforeAll(async () => {
  // Fuzzed requests send thousands of made-up tokens from one address; limiting that is tested in
  // auth-failures.test.ts, and here would turn every later request into a 429.
  s = await startTestServer({ router: { authFailures: { maxFailures: 1_000_000 } } });
});
afterAll(async () => {
  await s.close();
});

interface Outcome {
  status: number;
  text: string;
  contentType: string;
}

/** Sends a case with node:http, which (unlike fetch) also sends bodies on GET. */
function send(c: FuzzCase, method: string): Promise<Outcome> {
  // Stated, or node:http sends GET and DELETE bodies with no framing at all.
  const headers = c.body ? { ...c.headers, 'content-length': String(c.body.byteLength) } : c.headers;
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.base}${c.path}${c.query}`,
      { method: method.toUpperCase(), headers, signal: AbortSignal.timeout(10_000) },
      (res) => {
        const contentType = res.headers['content-type'] ?? '';
        if (contentType.startsWith('text/event-stream')) {
          // A stream that started is an answer: stop reading it.
          res.destroy();
          resolve({ status: res.statusCode ?? 0, text: '', contentType });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), contentType }),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body ?? undefined);
  });
}

/** OFREP's own failure body (`{ key?, errorCode, errorDetails }`), which its routes answer 400 and 404 with. */
const isOfrepFailure = (body: unknown): boolean => {
  const { errorCode, errorDetails } = (body ?? {}) as Record<string, unknown>;
  return typeof errorCode === 'string' && typeof errorDetails === 'string';
};

/** What is wrong with an answer, or null. */
function problemWith(outcome: Outcome, ofrep: boolean): string | null {
  if (outcome.status >= 500) return `answered ${outcome.status}`;
  if (outcome.status < 400) return null;
  // node:http itself refuses a request line and headers past its 16 kB before any handler runs.
  if (outcome.status === 431 && outcome.text === '') return null;
  let body: unknown;
  try {
    body = JSON.parse(outcome.text);
  } catch {
    return `error ${outcome.status} is not JSON: ${outcome.text.slice(0, 200)}`;
  }
  if (ofrep && (outcome.status === 400 || outcome.status === 404) && isOfrepFailure(body)) return null;
  const { id, name, message } = (body ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof message !== 'string')
    return `error ${outcome.status} body is not { id, name, message }: ${outcome.text.slice(0, 200)}`;
  return null;
}

const describeCase = (c: FuzzCase) => {
  const body = c.body ? Buffer.from(c.body).toString('utf8').slice(0, 300) : '';
  return `${c.kind} ${c.path.slice(0, 200)}${c.query.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 300)} ${body}`;
};

describe('every route under fuzzed input', () => {
  it('never answers 5xx, always with the error shape, and changes nothing on an error', async () => {
    const routes = allRoutes();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let cases = 0;
    const started = performance.now();
    for (const [index, route] of routes.entries()) {
      const { seed, tokens } = await seedFuzzData(s);
      const samples = fc.sample(routeCases(route, seed, tokens), {
        seed: SEED + index,
        numRuns: RUNS_PER_ROUTE,
      });
      // The state before each case: the last one read, unless the last case may have changed it.
      // SDK metrics are written by a background flush: settle it first, so a flush of an earlier
      // route's reports is not taken for a change made by this one.
      const settledSnapshot = async () => {
        await s.flagstaff.metrics.flush();
        return storeSnapshot(s.flagstaff.store);
      };
      let before = await settledSnapshot();
      for (const c of samples) {
        const logged = s.logged.length;
        let outcome: Outcome;
        try {
          outcome = await send(c, route.method);
        } catch (error) {
          failures.push(
            `${route.method} ${route.path}: request failed (${String(error)}) — ${describeCase(c)}`,
          );
          before = await settledSnapshot();
          continue;
        }
        cases++;
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        const problem = problemWith(outcome, route.path.startsWith('/ofrep/'));
        if (problem) {
          const cause = s.logged.slice(logged).map((l) => JSON.stringify(l.fields).slice(0, 300));
          failures.push(`${route.method} ${route.path}: ${problem} — ${describeCase(c)} ${cause.join(' ')}`);
        }
        // A case that turned maintenance mode on would make every later write a 503: turn it off.
        if (route.path === '/api/admin/maintenance' && (await s.flagstaff.maintenance.get(SYSTEM)).enabled)
          await s.flagstaff.maintenance.set(SYSTEM, { enabled: false });
        const after = await settledSnapshot();
        if (outcome.status >= 400 && after !== before)
          failures.push(
            `${route.method} ${route.path}: ${outcome.status} changed stored state — ${describeCase(c)}`,
          );
        before = after;
      }
    }
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.log(
      `fuzz (${testAdapter()}): ${routes.length} routes, ${cases} cases (${RUNS_PER_ROUTE} per route, seed ${SEED}); statuses ${byStatus.join(' ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
