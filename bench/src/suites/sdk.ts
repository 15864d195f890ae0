import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createClient } from '../http-client.js';
import { buildSeedPlan } from '../http-seed-plan.js';
import { startServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'ef56'.repeat(16)}`;
const DURATION_S = Number(process.env.FLAGSTAFF_BENCH_SECONDS ?? 5);
const STREAMS = Number(process.env.FLAGSTAFF_BENCH_STREAMS ?? 2000);

const startServer = (file: string) =>
  startServerProcess({
    DATABASE_URL: file,
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
    FLAGSTAFF_STREAM_MAX_CONNECTIONS: String(STREAMS + 10),
  });

/** Resident memory of a process in MB, from /proc (Linux); NaN elsewhere. */
function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function load(label: string, url: string, headers: Record<string, string>, expectStatus: number) {
  const result = await autocannon({ url, headers, connections: 10, duration: DURATION_S });
  const wrong = result.non2xx - (expectStatus === 304 ? result.requests.total : 0);
  console.log(
    `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
      `${(result.throughput.average / 1e6).toFixed(1)} MB/s${result.errors || wrong > 0 ? `  (errors ${result.errors}, unexpected statuses ${Math.max(0, wrong)})` : ''}`,
  );
}

/** Opens one SSE stream; resolves once `unleash-connected` arrived, `updated` once an update did. */
function openStream(base: string, token: string) {
  let connectedResolve: () => void = () => {};
  let updatedResolve: (at: number) => void = () => {};
  const connected = new Promise<void>((r) => {
    connectedResolve = r;
  });
  let updated = new Promise<number>((r) => {
    updatedResolve = r;
  });
  let tail = '';
  const req = http.get(
    `${base}/api/client/streaming`,
    { headers: { authorization: token }, agent: false },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = tail + chunk;
        if (text.includes('event: unleash-connected')) connectedResolve();
        if (text.includes('event: unleash-updated')) {
          updatedResolve(performance.now());
          tail = '';
        } else tail = text.slice(-64);
      });
    },
  );
  req.on('error', () => {});
  return {
    connected,
    nextUpdate: () => updated,
    reset() {
      updated = new Promise<number>((r) => {
        updatedResolve = r;
      });
    },
    close: () => req.destroy(),
  };
}

async function streams(
  base: string,
  token: string,
  pid: number | undefined,
  admin: ReturnType<typeof createClient>,
) {
  const rss0 = rssMb(pid);
  const opened = [];
  const t0 = performance.now();
  for (let i = 0; i < STREAMS; i++) {
    opened.push(openStream(base, token));
    // Connect in batches so the accept queue does not overflow.
    if (i % 200 === 199) await Promise.all(opened.slice(-200).map((s) => s.connected));
  }
  await Promise.all(opened.map((s) => s.connected));
  const connectMs = performance.now() - t0;
  const rss1 = rssMb(pid);
  const latencies: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const s of opened) s.reset();
    const started = performance.now();
    const res = await admin.request(
      'POST',
      `/api/admin/projects/default/features/feature-0001/environments/development/${round % 2 === 0 ? 'off' : 'on'}`,
    );
    if (res.status >= 300) throw new Error(`toggle → ${res.status}`);
    const arrivals = await Promise.all(opened.map((s) => s.nextUpdate()));
    latencies.push(Math.max(...arrivals) - started);
  }
  const rss2 = rssMb(pid);
  for (const s of opened) s.close();
  latencies.sort((a, b) => a - b);
  console.log(
    `${STREAMS} streams: connected in ${(connectMs / 1000).toFixed(2)} s; one change reached all of them in ` +
      `p50 ${latencies[2]!.toFixed(0)} ms (min ${latencies[0]!.toFixed(0)}, max ${latencies[4]!.toFixed(0)}; target ≤ 1000 ms)`,
  );
  console.log(
    `server RSS: ${rss0.toFixed(0)} MB before the streams, ${rss1.toFixed(0)} MB with them open, ${rss2.toFixed(0)} MB after 5 changes (target < 250 MB)`,
  );
}

export default async function sdkBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-sdk-bench-'));
  const { base, child } = await startServer(join(dir, 'bench.db'));
  const admin = createClient(base, { authorization: ADMIN });
  try {
    const plan = buildSeedPlan(1000);
    for (const c of plan.calls) {
      const res = await admin.request(
        c.method,
        c.path,
        c.body === undefined ? undefined : JSON.stringify(c.body),
      );
      if (res.status >= 300) throw new Error(`${c.method} ${c.path} → ${res.status}`);
    }
    const token = async (type: string) => {
      const res = await admin.request(
        'POST',
        '/api/admin/api-tokens',
        JSON.stringify({ tokenName: `bench-${type}`, type, environment: 'development' }),
      );
      return JSON.parse(res.body.toString('utf8')).secret as string;
    };
    const client = await token('client');
    const frontend = await token('frontend');
    const features = await fetch(`${base}/api/client/features`, { headers: { authorization: client } });
    const etag = features.headers.get('etag') ?? '';
    const size = (await features.arrayBuffer()).byteLength;
    const gz = await fetch(`${base}/api/client/features`, {
      headers: { authorization: client, 'accept-encoding': 'gzip' },
    });
    console.log(
      `client payload: ${plan.features} features, ${(size / 1e6).toFixed(2)} MB (gzip ${gz.headers.get('content-encoding')}); ${DURATION_S} s per case, 10 connections`,
    );
    const url = `${base}/api/client/features`;
    // The floor: Express and the loopback round trip with no Flagstaff work at all.
    await load('GET /health (floor)', `${base}/health`, {}, 200);
    await load('GET /api/client/features', url, { authorization: client }, 200);
    await load(
      'GET /api/client/features (gzip)',
      url,
      { authorization: client, 'accept-encoding': 'gzip' },
      200,
    );
    await load('GET /api/client/features → 304', url, { authorization: client, 'if-none-match': etag }, 304);
    await load(
      'GET /api/frontend?userId=…',
      `${base}/api/frontend?userId=user-17&tenant=acme&currentTime=2025-01-01T00:00:00.000Z`,
      { authorization: frontend },
      200,
    );
    const front = await fetch(
      `${base}/api/frontend?userId=user-17&tenant=acme&currentTime=2025-01-01T00:00:00.000Z`,
      { headers: { authorization: frontend } },
    );
    const frontEtag = front.headers.get('etag');
    if (frontEtag)
      await load(
        'GET /api/frontend → 304',
        `${base}/api/frontend?userId=user-17&tenant=acme&currentTime=2025-01-01T00:00:00.000Z`,
        { authorization: frontend, 'if-none-match': frontEtag },
        304,
      );
    else console.log('GET /api/frontend → 304: no ETag (the configuration reads the clock or random draws)');
    await streams(base, client, child.pid, admin);
  } finally {
    admin.close();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
