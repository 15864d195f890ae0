// Event log benchmark: appends 1,000,000 generated events through the public store API (the real
// append path: id locks, creator rows, free-text index) into SQLite and PostgreSQL, then times
// the search shapes the admin UI and the outbox use. Reports p50/p95 per shape, load time and size.
// BENCH_EVENTS overrides the count; FLAGSTAFF_BENCH_PG_URL (or FLAGSTAFF_TEST_PG_URL) the server.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { EventQuery, EventType, NewEvent, Store } from '@flagstaff/core';
import { postgresStore } from '@flagstaff/store-postgres';
import { sqliteStore } from '@flagstaff/store-sqlite';
import pg from 'pg';

const TOTAL = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = 5_000;
const RUNS = 200;
const WARMUPS = 20;
const PROJECTS = 50;
const FEATURES = 20_000;
const CREATORS = 200;
const WORDS = 5_000;
const START = Date.UTC(2025, 0, 1);
const SPAN_MS = 365 * 24 * 3600_000;

/** mulberry32: the same data and query parameters on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ro',
  'ta',
  'vu',
  'zen',
  'pra',
  'sol',
  'tri',
  'bel',
  'dor',
  'fin',
  'gar',
  'hul',
];
const word = (i: number): string => {
  let w = '';
  for (let n = i + 17; w.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length))
    w += SYLLABLES[n % SYLLABLES.length];
  return w;
};
const VOCABULARY = Array.from({ length: WORDS }, (_, i) => word(i));
/** Zipf-like: low ranks are common, as in real text. */
const pick = (random: () => number, n: number): number => Math.floor(n * random() ** 2.5);
const featureName = (i: number): string => `${VOCABULARY[i % WORDS]}-${VOCABULARY[(i * 7) % WORDS]}-${i}`;
const projectOf = (feature: number): string => `project-${feature % PROJECTS}`;
const TYPES: readonly [EventType, number][] = [
  ['feature-strategy-update', 30],
  ['feature-environment-enabled', 15],
  ['feature-environment-disabled', 12],
  ['feature-metadata-updated', 10],
  ['feature-strategy-add', 8],
  ['feature-created', 6],
  ['feature-tagged', 5],
  ['feature-variants-updated', 4],
  ['feature-archived', 3],
  ['segment-updated', 3],
  ['api-token-created', 2],
  ['project-created', 1],
  ['user-created', 1],
];
const TYPE_WEIGHT = TYPES.reduce((sum, [, w]) => sum + w, 0);

function generateEvent(random: () => number, i: number): NewEvent {
  let roll = random() * TYPE_WEIGHT;
  let type: EventType = 'feature-updated';
  for (const [candidate, weight] of TYPES) {
    roll -= weight;
    if (roll < 0) {
      type = candidate;
      break;
    }
  }
  const feature = pick(random, FEATURES);
  const sentence = (n: number) => Array.from({ length: n }, () => VOCABULARY[pick(random, WORDS)]).join(' ');
  const name = featureName(feature);
  const data =
    type === 'feature-environment-enabled' || type === 'feature-environment-disabled'
      ? null
      : type.startsWith('feature-strategy')
        ? {
            name: 'flexibleRollout',
            parameters: { rollout: String(Math.floor(random() * 100)), groupId: name },
          }
        : { name, description: sentence(8), type: 'release' };
  return {
    type,
    createdBy: random() < 0.1 ? 'admin-token' : `user${pick(random, CREATORS)}@example.com`,
    createdByUserId: null,
    createdAt: new Date(START + Math.floor((i / TOTAL) * SPAN_MS)).toISOString(),
    project: projectOf(feature),
    featureName: name,
    environment: type.includes('environment') || type.includes('strategy') ? 'production' : null,
    data,
    preData: type === 'feature-metadata-updated' ? { description: sentence(6) } : null,
    tags: random() < 0.2 ? [{ type: 'simple', value: VOCABULARY[pick(random, 100)]! }] : [],
  };
}

async function bulkLoad(store: Store): Promise<number> {
  const random = rng(42);
  const started = performance.now();
  for (let i = 0; i < TOTAL; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, TOTAL - i) }, (_, j) => generateEvent(random, i + j));
    await store.transaction((tx) => tx.events.append(batch));
  }
  return (performance.now() - started) / 1000;
}

/** One search shape: a query built per run from a seeded generator, as users vary their searches. */
interface Shape {
  name: string;
  query: (random: () => number, latest: number) => EventQuery;
}
const SHAPES: Shape[] = [
  { name: 'last 100', query: () => ({ limit: 100 }) },
  { name: 'by type', query: (r) => ({ type: TYPES[Math.floor(r() * TYPES.length)]![0], limit: 100 }) },
  { name: 'by project', query: (r) => ({ project: `project-${Math.floor(r() * PROJECTS)}`, limit: 100 }) },
  { name: 'by feature', query: (r) => ({ feature: featureName(pick(r, FEATURES)), limit: 100 }) },
  { name: 'free text', query: (r) => ({ query: VOCABULARY[Math.floor(r() * WORDS)]!, limit: 100 }) },
  {
    name: 'free text, feature name',
    query: (r) => ({ query: featureName(pick(r, FEATURES)).split('-').slice(0, 2).join('-'), limit: 100 }),
  },
  {
    name: 'combined (type+project+text)',
    query: (r) => ({
      type: 'feature-metadata-updated',
      project: `project-${Math.floor(r() * PROJECTS)}`,
      query: VOCABULARY[pick(r, 200)]!,
      limit: 100,
    }),
  },
  {
    name: 'paging: project, maxId cursor',
    query: (r, latest) => ({
      project: `project-${Math.floor(r() * PROJECTS)}`,
      maxId: Math.floor(r() * latest),
      limit: 100,
    }),
  },
  {
    name: 'paging: text, maxId cursor',
    query: (r, latest) => ({ query: VOCABULARY[pick(r, 500)]!, maxId: Math.floor(r() * latest), limit: 100 }),
  },
];

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timeShapes(store: Store): Promise<Map<string, { p50: number; p95: number; rows: number }>> {
  const latest = await store.events.latestId();
  const results = new Map<string, { p50: number; p95: number; rows: number }>();
  for (const shape of SHAPES) {
    const random = rng(7);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      const query = shape.query(random, latest);
      const started = performance.now();
      const found = await store.events.search(query);
      if (i >= WARMUPS) {
        times.push(performance.now() - started);
        rows += found.length;
      }
    }
    times.sort((a, b) => a - b);
    results.set(shape.name, { p50: percentile(times, 50), p95: percentile(times, 95), rows: rows / RUNS });
  }
  return results;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Report {
  store: string;
  loadSeconds: number;
  size: string;
  shapes: Map<string, { p50: number; p95: number; rows: number }>;
}

async function benchSqlite(dataDir: string): Promise<Report> {
  const file = join(dataDir, `events-${process.pid}.db`);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  remove();
  try {
    const loading = await sqliteStore({ filename: file });
    const loadSeconds = await bulkLoad(loading);
    // Closing runs SQLite's upkeep (PRAGMA optimize) and folds the WAL into the file, as a server
    // that has been running a while would have; the size is then the file alone.
    await loading.close();
    const size = mb(statSync(file).size);
    const store = await sqliteStore({ filename: file });
    try {
      return { store: 'SQLite (file, WAL)', loadSeconds, size, shapes: await timeShapes(store) };
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
}

async function benchPostgres(url: string): Promise<Report | string> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return `skipped: no PostgreSQL at ${url} (${(error as Error).message})`;
  }
  const schema = `flagstaff_bench_${process.pid}`;
  const store = await postgresStore({ connectionString: url, schema, dropSchemaOnClose: true });
  try {
    const loadSeconds = await bulkLoad(store);
    // What autovacuum does soon after a bulk load, done now rather than waited for: planner
    // statistics, and the GIN pending list merged into the index proper.
    await admin.query(`vacuum analyze "${schema}".events`);
    const { rows } = await admin.query<{ bytes: string }>(
      `select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
      [schema],
    );
    const size = mb(Number(rows[0]?.bytes ?? 0));
    return { store: 'PostgreSQL', loadSeconds, size, shapes: await timeShapes(store) };
  } finally {
    await store.close();
    await admin.end();
  }
}

function print(report: Report): void {
  console.log(`\n${report.store}: ${TOTAL.toLocaleString('en')} events`);
  console.log(
    `  bulk load ${report.loadSeconds.toFixed(1)} s (${Math.round(TOTAL / report.loadSeconds).toLocaleString('en')} events/s), database ${report.size}`,
  );
  console.log(`  ${'shape'.padEnd(32)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'rows'.padStart(7)}`);
  for (const [name, { p50, p95, rows }] of report.shapes) {
    console.log(
      `  ${name.padEnd(32)}${p50.toFixed(2).padStart(9)}${p95.toFixed(2).padStart(9)}${rows.toFixed(0).padStart(7)}`,
    );
  }
}

/** Runs the benchmark on SQLite, then PostgreSQL when a server answers. */
export default async function eventsBenchmark(): Promise<void> {
  const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../../../.bench-data');
  mkdirSync(dataDir, { recursive: true });
  console.log(`search timings: ${RUNS} runs per shape after ${WARMUPS} warm-ups, limit 100`);
  print(await benchSqlite(dataDir));
  const url =
    process.env.FLAGSTAFF_BENCH_PG_URL ??
    process.env.FLAGSTAFF_TEST_PG_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const postgres = await benchPostgres(url);
  if (typeof postgres === 'string') console.log(`\nPostgreSQL: ${postgres}`);
  else print(postgres);
}
