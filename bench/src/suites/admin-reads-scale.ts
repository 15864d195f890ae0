// The admin reads as one project grows: the standalone server (its own process) on a SQLite file and
// on a fresh PostgreSQL database, seeded through its import route to 1,000, 10,000 and 50,000
// features (BENCH_SCALE_STEPS overrides, e.g. `1000,10000`), and at each step the p50 of the feature
// search's shapes the admin UI sends, the full project feature list, and the playground paged and
// whole. Each figure comes with its growth factor from the step before. FLAGSTAFF_BENCH_TARGETS
// (`sqlite`, `postgres`) picks the stores. Times are to the last byte
// of the answer (and, for the large answers, to the first byte too: a streamed answer starts early).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPostgresDatabase } from '../postgres-database.js';
import { wanted } from '../reference.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'5ca1'.repeat(16)}`;
const STEPS = (process.env.BENCH_SCALE_STEPS ?? '1000,10000,50000').split(',').map(Number);
const IMPORT_CHUNK = 5_000;
const RUNS = 20;
const LARGE_RUNS = 5;
const WARMUPS = 2;

const name = (i: number) => `scale-feature-${String(i).padStart(5, '0')}`;

/** An import document for features `from`…`to - 1`: a strategy on every third, a tag on every tenth. */
function importBody(from: number, to: number) {
  const names = Array.from({ length: to - from }, (_, k) => name(from + k));
  return {
    project: 'default',
    environment: 'development',
    data: {
      features: names.map((n, k) => ({
        name: n,
        type: (from + k) % 4 === 0 ? 'experiment' : 'release',
        project: 'default',
        description: `Scale feature ${from + k}`,
        impressionData: false,
      })),
      featureStrategies: names
        .filter((_, k) => (from + k) % 3 === 0)
        .map((featureName, k) => ({
          featureName,
          name: 'flexibleRollout',
          parameters: { rollout: String(k % 100), stickiness: 'default', groupId: featureName },
          constraints: [{ contextName: 'userId', operator: 'IN', values: [`${k}`] }],
          segments: [],
          variants: [],
        })),
      featureEnvironments: names.map((featureName, k) => ({
        featureName,
        name: featureName,
        environment: 'development',
        enabled: (from + k) % 2 === 0,
        variants: [],
      })),
      featureTags: names
        .filter((_, k) => (from + k) % 10 === 0)
        .map((featureName, k) => ({ featureName, tagType: 'simple', tagValue: `team-${k % 20}` })),
      tagTypes: [{ name: 'simple', description: 'Simple tags', icon: '#' }],
      contextFields: [],
      segments: [],
      dependencies: [],
    },
  };
}

interface Timing {
  /** Milliseconds to the first byte of the body and to the last. */
  first: number;
  last: number;
  bytes: number;
  status: number;
}

/** One request over a kept-alive socket, timed to the first and the last byte of the body. */
function timed(agent: http.Agent, base: URL, method: string, path: string, body?: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = 0;
    let bytes = 0;
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: {
          authorization: ADMIN,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) first = performance.now() - start;
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({ first, last: performance.now() - start, bytes, status: res.statusCode ?? 0 }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Case {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  large?: boolean;
}

const search = (query: string) => `/api/admin/search/features?${query}`;
const playground = (extra: Record<string, unknown>) => ({
  environment: 'development',
  projects: ['default'],
  context: { appName: 'bench', userId: '7' },
  ...extra,
});

const CASES: Case[] = [
  {
    label: 'search: project page, first page (createdAt desc, 25)',
    method: 'GET',
    path: search('project=IS%3Adefault&sortBy=createdAt&sortOrder=desc&offset=0&limit=25'),
  },
  {
    label: 'search: first page of 50 (no filter)',
    method: 'GET',
    path: search('limit=50'),
  },
  {
    label: 'search: by name "feature-00", page of 50',
    method: 'GET',
    path: search('project=IS%3Adefault&query=feature-00&limit=50'),
  },
  {
    // Ten names at 50,000 (scale-feature-49990…49999): few matches, which an index must find.
    label: 'search: by name "feature-4999", few matches',
    method: 'GET',
    path: search('project=IS%3Adefault&query=feature-4999&limit=50'),
  },
  {
    label: 'search: sort by name desc, page 10',
    method: 'GET',
    path: search('project=IS%3Adefault&sortBy=name&sortOrder=desc&offset=450&limit=50'),
  },
  {
    label: 'search: sort by lastSeenAt, first page',
    method: 'GET',
    path: search('project=IS%3Adefault&sortBy=lastSeenAt&sortOrder=desc&limit=50'),
  },
  {
    label: 'search: type experiment + tag, first page',
    method: 'GET',
    path: search('project=IS%3Adefault&type=IS%3Aexperiment&tag=INCLUDE%3Asimple%3Ateam-0&limit=50'),
  },
  {
    label: 'project feature list (whole)',
    method: 'GET',
    path: '/api/admin/projects/default/features',
    large: true,
  },
  {
    label: 'playground: page of 50',
    method: 'POST',
    path: '/api/admin/playground',
    body: playground({ limit: 50, offset: 0 }),
  },
  {
    label: 'playground: name filter, page of 50',
    method: 'POST',
    path: '/api/admin/playground',
    body: playground({ query: 'feature-00', limit: 50 }),
  },
  {
    label: 'playground: everything (streamed)',
    method: 'POST',
    path: '/api/admin/playground',
    body: playground({}),
    large: true,
  },
];

async function measure(base: URL, agent: http.Agent, c: Case): Promise<Timing> {
  const body = c.body === undefined ? undefined : JSON.stringify(c.body);
  const runs: Timing[] = [];
  const count = c.large ? LARGE_RUNS : RUNS;
  for (let i = 0; i < WARMUPS + count; i++) {
    const t = await timed(agent, base, c.method, c.path, body);
    if (t.status !== 200) throw new Error(`${c.label}: ${t.status}`);
    if (i >= WARMUPS) runs.push(t);
  }
  return {
    first: median(runs.map((r) => r.first)),
    last: median(runs.map((r) => r.last)),
    bytes: median(runs.map((r) => r.bytes)),
    status: 200,
  };
}

const size = (bytes: number) =>
  bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;

async function runTarget(label: string, databaseUrl: string): Promise<void> {
  const { base, child } = await startServerProcess({
    DATABASE_URL: databaseUrl,
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
  });
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const previous = new Map<string, number>();
  try {
    let seeded = 0;
    for (const step of STEPS) {
      const started = performance.now();
      for (let from = seeded; from < step; from += IMPORT_CHUNK) {
        const to = Math.min(step, from + IMPORT_CHUNK);
        const t = await timed(
          agent,
          url,
          'POST',
          '/api/admin/features-batch/import',
          JSON.stringify(importBody(from, to)),
        );
        if (t.status !== 200) throw new Error(`import ${from}…${to}: ${t.status}`);
      }
      seeded = step;
      console.log(
        `${label} at ${step.toLocaleString('en')} features (seeded in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
      for (const c of CASES) {
        const t = await measure(url, agent, c);
        const before = previous.get(c.label);
        const growth = before === undefined ? '' : `  ×${(t.last / before).toFixed(2)}`;
        const firstByte = c.large ? `  first byte ${t.first.toFixed(1)} ms` : '';
        console.log(
          `  ${c.label.padEnd(56)} p50 ${t.last.toFixed(1).padStart(8)} ms${growth.padEnd(8)}${firstByte}  ${size(t.bytes)}`,
        );
        previous.set(c.label, t.last);
      }
    }
  } finally {
    agent.destroy();
    await stopServerProcess(child);
  }
}

export default async function run(): Promise<void> {
  if (wanted('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'flagstaff-admin-reads-scale-'));
    try {
      await runTarget('sqlite', join(dir, 'scale.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (wanted('postgres')) await withPostgresDatabase('admin_reads', (url) => runTarget('postgres', url));
}
