import { readFileSync } from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';
import { createClient } from '../http-client.js';
import { buildSeedPlan } from '../http-seed-plan.js';
import { runLoad } from '../load.js';
import { forEachTarget } from '../reference.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'ef56'.repeat(16)}`;
const DURATION_S = Number(process.env.FLAGSTAFF_BENCH_SECONDS ?? 5);
const STREAMS = Number(process.env.FLAGSTAFF_BENCH_STREAMS ?? 2000);

const startServer = (databaseUrl: string) =>
  startServerProcess({
    DATABASE_URL: databaseUrl,
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
    FLAGSTAFF_STREAM_MAX_CONNECTIONS: String(STREAMS + 10),
    // Every stream here uses one token: lift the per-token bound (default 250) past the count.
    FLAGSTAFF_STREAM_MAX_PER_TOKEN: String(STREAMS + 10),
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

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

let serverPid: number | undefined;

interface Measured {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytesPerSecond: number;
  requests: number;
  unexpected: number;
  errors: number;
}

/** autocannon: the fastest client for small answers, but it reads binary (compressed) bodies ~20× slower. */
async function withAutocannon(
  url: string,
  headers: Record<string, string>,
  expectStatus: number,
  post?: string,
): Promise<Measured> {
  const result = await autocannon({
    url,
    headers: post === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    connections: 10,
    duration: DURATION_S,
    ...(post === undefined ? {} : { method: 'POST' as const, body: post }),
  });
  return {
    perSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    requests: result.requests.total,
    unexpected: Math.max(0, result.non2xx - (expectStatus === 304 ? result.requests.total : 0)),
    errors: result.errors,
  };
}

/** Node's own client (llhttp): reads compressed bodies as fast as plain ones. */
async function withNodeClient(url: string, headers: Record<string, string>, expectStatus: number) {
  const result = await runLoad({ url, headers, connections: 10, durationS: DURATION_S });
  return {
    ...result,
    unexpected: result.requests - (result.statuses.get(expectStatus) ?? 0),
  };
}

async function load(
  label: string,
  url: string,
  headers: Record<string, string>,
  expectStatus: number,
  options: { post?: string; client?: 'autocannon' | 'node' } = {},
) {
  const cpu0 = cpuSeconds(serverPid);
  const result =
    options.client === 'node'
      ? await withNodeClient(url, headers, expectStatus)
      : await withAutocannon(url, headers, expectStatus, options.post);
  const serverCpuUs = ((cpuSeconds(serverPid) - cpu0) * 1e6) / Math.max(1, result.requests);
  console.log(
    `${label.padEnd(44)} ${result.perSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50Ms.toFixed(1)} ms  p99 ${result.p99Ms.toFixed(1)} ms  ` +
      `${(result.bytesPerSecond / 1e6).toFixed(1)} MB/s  server CPU ${serverCpuUs.toFixed(0)} µs/req` +
      (result.errors || result.unexpected > 0
        ? `  (errors ${result.errors}, unexpected statuses ${result.unexpected})`
        : ''),
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

/** How long one change takes to reach a single streaming client, from the admin call's start. */
async function oneStream(base: string, token: string, admin: ReturnType<typeof createClient>) {
  const stream = openStream(base, token);
  await stream.connected;
  const latencies: number[] = [];
  const calls: number[] = [];
  for (let round = 0; round < 21; round++) {
    stream.reset();
    const started = performance.now();
    const res = await admin.request(
      'POST',
      `/api/admin/projects/default/features/feature-0002/environments/development/${round % 2 === 0 ? 'off' : 'on'}`,
    );
    if (res.status >= 300) throw new Error(`toggle → ${res.status}`);
    calls.push(performance.now() - started);
    latencies.push((await stream.nextUpdate()) - started);
  }
  stream.close();
  latencies.sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  console.log(
    `one stream: a change reached it in p50 ${latencies[10]!.toFixed(1)} ms (min ${latencies[0]!.toFixed(1)}, ` +
      `max ${latencies[20]!.toFixed(1)}, 21 changes; target ≤ 50 ms), counted from the start of the admin call ` +
      `(which took p50 ${calls[10]!.toFixed(1)} ms to answer)`,
  );
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

/** One SDK metrics report: a bucket with `names` counted, as unleash-client sends every minute. */
function metricsBody(names: readonly string[]): string {
  const toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }> = {};
  names.forEach((name, i) => {
    toggles[name] = { yes: 10 + i, no: i, variants: i % 5 === 0 ? { blue: 3, red: 2 } : {} };
  });
  const stop = new Date();
  return JSON.stringify({
    appName: 'bench-app',
    instanceId: 'bench-1',
    environment: 'development',
    bucket: { start: new Date(stop.getTime() - 60_000).toISOString(), stop: stop.toISOString(), toggles },
  });
}

/** Every case against a standalone server on `databaseUrl` (a SQLite file or a PostgreSQL URL). */
async function measure(label: string, databaseUrl: string): Promise<void> {
  let { base, child } = await startServer(databaseUrl);
  let admin = createClient(base, { authorization: ADMIN });
  try {
    const client = await measureAt(label, base, child.pid, ADMIN);
    // Streams on a fresh process over the same database: its RSS is then the streams' own, not what
    // the heap kept from ~100,000 requests above (V8 returns memory to the system lazily).
    admin.close();
    await stopServerProcess(child);
    ({ base, child } = await startServer(databaseUrl));
    admin = createClient(base, { authorization: ADMIN });
    await oneStream(base, client, admin);
    await streams(base, client, child.pid, admin);
  } finally {
    admin.close();
    await stopServerProcess(child);
  }
}

/**
 * Seeds an empty server at `base` and loads each SDK-facing path in turn; returns the client token
 * it made. The reference (Unleash) runs this part only: its open-source edition has no streaming.
 */
async function measureAt(label: string, base: string, pid: number | undefined, adminToken: string) {
  console.log(`--- ${label} ---`);
  serverPid = pid;
  const admin = createClient(base, { authorization: adminToken });
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
    // The same two with Node's client, which reads compressed bodies at full speed (see load.ts).
    await load('GET /api/client/features [node client]', url, { authorization: client }, 200, {
      client: 'node',
    });
    await load(
      'GET /api/client/features (gzip) [node client]',
      url,
      { authorization: client, 'accept-encoding': 'gzip' },
      200,
      { client: 'node' },
    );
    await load(
      'GET /api/client/features (br) [node client]',
      url,
      { authorization: client, 'accept-encoding': 'br' },
      200,
      { client: 'node' },
    );
    await load('GET /api/client/features → 304', url, { authorization: client, 'if-none-match': etag }, 304);
    // Delta SDKs: the hydration, the 304 of a client that is current, and one change since a revision.
    const deltaUrl = `${base}/api/client/delta`;
    await load('GET /api/client/delta (hydration)', deltaUrl, { authorization: client }, 200);
    const deltaTag =
      (await fetch(deltaUrl, { headers: { authorization: client } })).headers.get('etag') ?? '';
    await load(
      'GET /api/client/delta → 304',
      deltaUrl,
      { authorization: client, 'if-none-match': deltaTag },
      304,
    );
    for (const state of ['on', 'off']) {
      const toggled = await admin.request(
        'POST',
        `/api/admin/projects/default/features/feature-0003/environments/development/${state}`,
      );
      if (toggled.status >= 300) throw new Error(`toggle → ${toggled.status}`);
    }
    await load(
      'GET /api/client/delta (one change)',
      deltaUrl,
      { authorization: client, 'if-none-match': deltaTag },
      200,
    );
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
    await load(
      'POST /api/client/metrics (50 flags)',
      `${base}/api/client/metrics`,
      { authorization: client },
      202,
      {
        post: metricsBody(Array.from({ length: 50 }, (_, i) => `feature-${String(i * 7).padStart(4, '0')}`)),
      },
    );
    return client;
  } finally {
    admin.close();
  }
}

export default async function sdkBench(): Promise<void> {
  await forEachTarget('sdk', measure, (r) => measureAt('reference', r.base, r.pid, r.adminToken));
}
