// Growth: one project grown to 1,000, 10,000 and 50,000 features on a standalone server process
// (SQLite, then a fresh PostgreSQL database), each step seeded through the import route
// (POST /api/admin/features-batch/import, 5,000 features per call, one transaction each). At each
// size: the project's feature list, a toggle until /api/client/features shows a new ETag, the client
// payload warm, the project page's first search page, a search by name, the playground over every
// feature, a streaming SDK's latency, and the server's RSS after all of it; then a table with the
// growth factor per step. Printed, never asserted.
//
// BENCH_SCALE_SIZES=1000,10000,50000 (ascending) picks the sizes; BENCH_SCALE_BUDGET_S (default
// 1200) bounds each target: no further size is started past it. BENCH_SCALE_HEAPSNAPSHOT=<dir>
// writes the server's heap snapshot into that directory after the last size (read it with
// `node --import tsx src/heap-summary.ts <file>` or Chrome's DevTools).

import pg from 'pg';
import { createClient } from '../http-client.js';
import { forEachTarget } from '../reference.js';
import {
  type Client,
  createToggle,
  heapSnapshot,
  heapSnapshotSettings,
  memoryMaps,
  repeated,
  rssMb,
  streamLatency,
  type Toggle,
  timed,
  toggleToEtag,
} from '../scale-probes.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';
import { exportDocument } from './import.js';

const ADMIN = `*:*.${'5ca1'.repeat(16)}`;
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,50000').split(',').map(Number);
const BUDGET_MS = Number(process.env.BENCH_SCALE_BUDGET_S ?? 1200) * 1000;
const CHUNK = 5000;
const RUNS = 11;
const SNAPSHOT_DIR = process.env.BENCH_SCALE_HEAPSNAPSHOT;

/** The figures of one size, in the order of the table. */
type Row = Map<string, { value: number; unit: string; note?: string }>;

const mb = (bytes: number) => bytes / 1e6;

/** Seeds features `from`..`to`-1 through the import route, CHUNK per call; returns the seconds taken. */
async function seed(admin: Client, from: number, to: number): Promise<number> {
  const started = performance.now();
  for (let at = from; at < to; at += CHUNK) {
    const count = Math.min(CHUNK, to - at);
    const data = exportDocument(at + count);
    // exportDocument numbers from 0: keep the slice this call adds (features, strategies, settings, tags).
    const keep = new Set(data.features.slice(at).map((f) => f.name));
    const body = {
      project: 'default',
      environment: 'development',
      data: {
        ...data,
        features: data.features.filter((f) => keep.has(f.name)),
        featureStrategies: data.featureStrategies.filter((s) => keep.has(s.featureName)),
        featureEnvironments: data.featureEnvironments.filter((e) => keep.has(e.featureName)),
        featureTags: data.featureTags.filter((t) => keep.has(t.featureName)),
      },
    };
    const res = await admin.request('POST', '/api/admin/features-batch/import', JSON.stringify(body));
    if (res.status >= 300) throw new Error(`import → ${res.status} ${res.body.toString().slice(0, 300)}`);
  }
  return (performance.now() - started) / 1000;
}

/**
 * On PostgreSQL, ANALYZE after seeding when the server's autovacuum is off (as on the development
 * machine's test server): a default server's autovacuum analyzes tables after a bulk load, so the
 * admin reads are measured with the statistics the planner would have. Returns whether it ran.
 */
async function analyzeWithoutAutovacuum(databaseUrl: string): Promise<boolean> {
  if (!/^postgres(ql)?:/i.test(databaseUrl)) return false;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    if (rows[0]?.autovacuum === 'on') return false;
    await client.query('analyze');
    return true;
  } finally {
    await client.end();
  }
}

async function measureSize(
  base: string,
  pid: number | undefined,
  admin: Client,
  client: Client,
  clientToken: string,
  toggle: Toggle,
  seedS: number,
): Promise<Row> {
  const row: Row = new Map();
  row.set('seeding this step (import route)', { value: seedS, unit: 's' });
  const cold = await timed(client, 'GET', '/api/client/features');
  row.set('/api/client/features, first after seeding', { value: cold.ms, unit: 'ms' });
  // The SDK paths first, then RSS; then the admin reads, each followed by RSS: what each part of
  // the load added to the process (RSS rarely shrinks, so each figure includes the ones before).
  const etag = await toggleToEtag(base, toggle, clientToken, RUNS);
  row.set('toggle → new ETag, headers (identity)', { value: etag.headersP50, unit: 'ms' });
  row.set('toggle → new ETag, whole body (identity)', {
    value: etag.p50,
    unit: 'ms',
    note: `max ${etag.max.toFixed(0)}`,
  });
  const etagGzip = await toggleToEtag(base, toggle, clientToken, RUNS, 'gzip');
  row.set('toggle → new ETag, whole body (gzip)', {
    value: etagGzip.p50,
    unit: 'ms',
    note: `max ${etagGzip.max.toFixed(0)}`,
  });
  const warm = await repeated(client, RUNS, 'GET', '/api/client/features');
  row.set('/api/client/features, warm', {
    value: warm.ms,
    unit: 'ms',
    note: `${mb(warm.bytes).toFixed(1)} MB`,
  });
  try {
    const stream = await streamLatency(base, toggle, clientToken, RUNS);
    row.set('streaming SDK: toggle → update', {
      value: stream.p50,
      unit: 'ms',
      note: `max ${stream.max.toFixed(0)}, connect ${stream.connectMs.toFixed(0)} ms`,
    });
  } catch (error) {
    row.set('streaming SDK: toggle → update', {
      value: Number.NaN,
      unit: 'ms',
      note: (error as Error).message,
    });
  }
  row.set('server RSS after seeding + SDK reads', { value: rssMb(pid), unit: 'MB' });
  const list = await timed(admin, 'GET', '/api/admin/projects/default/features');
  row.set('GET /api/admin/projects/default/features', {
    value: list.ms,
    unit: 'ms',
    note: list.status === 200 ? `${mb(list.bytes).toFixed(1)} MB` : `status ${list.status}`,
  });
  row.set('server RSS, + project feature list', { value: rssMb(pid), unit: 'MB' });
  const firstPage = await repeated(
    admin,
    RUNS,
    'GET',
    '/api/admin/search/features?project=IS:default&sortBy=createdAt&sortOrder=desc&offset=0&limit=25',
  );
  row.set('search, project first page', {
    value: firstPage.ms,
    unit: 'ms',
    note: `status ${firstPage.status}`,
  });
  const byName = await repeated(
    admin,
    RUNS,
    'GET',
    '/api/admin/search/features?project=IS:default&query=feature-001&offset=0&limit=50',
  );
  row.set('search by name, page of 50', { value: byName.ms, unit: 'ms', note: `status ${byName.status}` });
  const playground = await repeated(admin, 3, 'POST', '/api/admin/playground', {
    environment: 'development',
    projects: '*',
    context: { appName: 'scale-bench', userId: '17' },
  });
  row.set('playground, every feature', {
    value: playground.ms,
    unit: 'ms',
    note: playground.status === 200 ? `${mb(playground.bytes).toFixed(1)} MB` : `status ${playground.status}`,
  });
  row.set('server RSS, + search and playground (all of it)', { value: rssMb(pid), unit: 'MB' });
  // RSS right after the load counts garbage a collection has not reached yet; V8 collects an idle
  // heap within seconds (its memory reducer), so this is what the process settles at.
  await new Promise((r) => setTimeout(r, 15_000));
  row.set('server RSS, 15 s idle after it', { value: rssMb(pid), unit: 'MB' });
  for (const [kind, value] of Object.entries(memoryMaps(pid)).sort((a, b) => b[1] - a[1]))
    row.set(`  of which ${kind}`, { value, unit: 'MB' });
  return row;
}

function printTable(label: string, sizes: readonly number[], rows: readonly Row[]): void {
  const names = [...(rows[0]?.keys() ?? [])];
  console.log(`\n[${label}] ${sizes.map((s) => s.toLocaleString('en')).join(' / ')} features`);
  for (const name of names) {
    const cells = rows.map((row, i) => {
      const cell = row.get(name)!;
      const value = cell.unit === 's' ? cell.value.toFixed(1) : cell.value.toFixed(cell.value < 10 ? 1 : 0);
      const before = i > 0 ? rows[i - 1]!.get(name)!.value : null;
      const growth = before && before > 0 ? ` ×${(cell.value / before).toFixed(1)}` : '';
      return `${value} ${cell.unit}${cell.note ? ` (${cell.note})` : ''}${growth}`;
    });
    console.log(`  ${name.padEnd(42)} ${cells.map((c) => c.padEnd(34)).join(' ')}`);
  }
}

async function measure(label: string, databaseUrl: string): Promise<void> {
  const { base, child } = await startServerProcess({
    DATABASE_URL: databaseUrl,
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
    FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES: String(200 * 1024 * 1024),
    ...(SNAPSHOT_DIR ? heapSnapshotSettings(SNAPSHOT_DIR) : {}),
  });
  const admin = createClient(base, { authorization: ADMIN });
  const started = performance.now();
  const sizes: number[] = [];
  const rows: Row[] = [];
  let client: Client | null = null;
  try {
    const tokenRes = await admin.request(
      'POST',
      '/api/admin/api-tokens',
      JSON.stringify({ tokenName: 'scale-bench', type: 'client', environment: 'development' }),
    );
    const clientToken = JSON.parse(tokenRes.body.toString()).secret as string;
    client = createClient(base, { authorization: clientToken });
    // Imported enabled (every even-numbered feature is); it goes on flipping from size to size.
    const toggle = createToggle(admin, 'bulk-feature-00002', true);
    let seeded = 0;
    for (const size of SIZES) {
      if (performance.now() - started > BUDGET_MS) {
        console.log(`[${label}] ${size.toLocaleString('en')} skipped: past the ${BUDGET_MS / 1000} s budget`);
        break;
      }
      const seedS = await seed(admin, seeded, size);
      seeded = size;
      if (await analyzeWithoutAutovacuum(databaseUrl))
        console.log(`[${label}] autovacuum is off on this server: ANALYZE after seeding, as it would have`);
      const row = await measureSize(base, child.pid, admin, client, clientToken, toggle, seedS);
      sizes.push(size);
      rows.push(row);
      console.log(
        `[${label}] ${size.toLocaleString('en')} features measured (${((performance.now() - started) / 1000).toFixed(0)} s so far); ` +
          `toggle → ETag ${row.get('toggle → new ETag, whole body (identity)')!.value.toFixed(0)} ms, ` +
          `RSS ${row.get('server RSS, + search and playground (all of it)')!.value.toFixed(0)} MB`,
      );
    }
    if (SNAPSHOT_DIR) console.log(`[${label}] heap snapshot: ${await heapSnapshot(child, SNAPSHOT_DIR)}`);
  } finally {
    client?.close();
    admin.close();
    await stopServerProcess(child);
  }
  printTable(label, sizes, rows);
}

export default async function scaleBench(): Promise<void> {
  await forEachTarget('scale', measure, async () => {
    console.log('reference: not measured by this suite');
  });
}
