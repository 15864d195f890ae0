import { readFileSync } from 'node:fs';
import { createClient } from '../http-client.js';
import { buildSeedPlan } from '../http-seed-plan.js';
import { forEachTarget } from '../reference.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'ab12'.repeat(16)}`;
const PLAYGROUND_RUNS = 60;
const PARSE_RUNS = 15;
const FLOOR_CALLS = 1000;
/** USER_HZ: the unit of /proc CPU times on Linux. */
const CLOCK_TICKS = 100;

const startServer = (databaseUrl: string) =>
  startServerProcess({ DATABASE_URL: databaseUrl, FLAGSTAFF_ADMIN_TOKEN: ADMIN });

const stopServer = stopServerProcess;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

/**
 * CPU time (user + system, ms) the server process has used so far, from /proc (Linux); null
 * elsewhere. Less sensitive than wall time to what else the shared machine is doing.
 */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** µs per sequential GET /health: what the HTTP round trip alone costs, per client. */
async function healthFloor(base: string, client: ReturnType<typeof createClient>) {
  // Warmed up first: the server's first requests run unoptimized code.
  for (let i = 0; i < FLOOR_CALLS; i++) {
    await (await fetch(`${base}/health`)).arrayBuffer();
    await client.request('GET', '/health');
  }
  let t = performance.now();
  for (let i = 0; i < FLOOR_CALLS; i++) await (await fetch(`${base}/health`)).arrayBuffer();
  const viaFetch = ((performance.now() - t) * 1000) / FLOOR_CALLS;
  t = performance.now();
  for (let i = 0; i < FLOOR_CALLS; i++) await client.request('GET', '/health');
  const viaHttp = ((performance.now() - t) * 1000) / FLOOR_CALLS;
  return { viaFetch, viaHttp };
}

async function measure(label: string, databaseUrl: string): Promise<void> {
  const { base, child } = await startServer(databaseUrl);
  try {
    await measureAt(label, base, child.pid, ADMIN);
  } finally {
    await stopServer(child);
  }
}

/** Seeds an empty server at `base` over its admin API and times its playground. */
async function measureAt(label: string, base: string, pid: number | undefined, token: string): Promise<void> {
  const client = createClient(base, { authorization: token });
  try {
    const floor = await healthFloor(base, client);
    const plan = buildSeedPlan();
    const cpu0 = cpuMsOf(pid);
    const t0 = performance.now();
    for (const c of plan.calls) {
      const res = await client.request(
        c.method,
        c.path,
        c.body === undefined ? undefined : JSON.stringify(c.body),
      );
      if (res.status >= 300)
        throw new Error(`${c.method} ${c.path} → ${res.status} ${res.body.toString('utf8')}`);
    }
    const seedMs = performance.now() - t0;
    const cpu1 = cpuMsOf(pid);
    const serverCpu =
      cpu0 === null || cpu1 === null
        ? ''
        : `; server CPU ${(((cpu1 - cpu0) * 1000) / plan.calls.length).toFixed(0)} µs/call`;
    const body = JSON.stringify({
      environment: 'development',
      projects: '*',
      context: { appName: 'bench', userId: 'user-17', properties: { tenant: 'acme' } },
    });
    // Latency is to the response's last byte. The client's own JSON.parse of ~1.4 MB (about as long
    // again on this machine) is timed apart, on the last answer after the requests: parsing (or
    // keeping) every answer left the client's garbage collector competing with the server for this
    // machine's two cores.
    const times: number[] = [];
    let answer: Buffer = Buffer.alloc(0);
    for (let i = 0; i < PLAYGROUND_RUNS + 5; i++) {
      const s = performance.now();
      const res = await client.request('POST', '/api/admin/playground', body);
      const received = performance.now();
      if (res.status !== 200) throw new Error(`playground → ${res.status} ${res.body.toString('utf8')}`);
      if (i >= 5) times.push(received - s);
      answer = res.body;
    }
    const parseTimes: number[] = [];
    let featureCount = 0;
    for (let i = 0; i < PARSE_RUNS; i++) {
      const s = performance.now();
      const json = JSON.parse(answer.toString('utf8')) as { features: unknown[] };
      parseTimes.push(performance.now() - s);
      featureCount = json.features.length;
    }
    const bytes = answer.length;
    console.log(
      `${label.padEnd(10)} GET /health round trip: ${floor.viaHttp.toFixed(0)} µs via node:http keep-alive (the client below), ` +
        `${floor.viaFetch.toFixed(0)} µs via fetch`,
    );
    console.log(
      `${label.padEnd(10)} seeding ${plan.features} features: ${plan.calls.length} sequential calls in ${(seedMs / 1000).toFixed(2)} s ` +
        `(${((seedMs * 1000) / plan.calls.length).toFixed(0)} µs/call${serverCpu}; target ≤ 3 s)`,
    );
    console.log(
      `${label.padEnd(10)} playground over ${featureCount} features (${(bytes / 1e6).toFixed(2)} MB): p50 ${median(times).toFixed(2)} ms, ` +
        `p95 ${p95(times).toFixed(2)} ms to the last byte (target p50 ≤ 15 ms); the client's JSON.parse p50 ${median(parseTimes).toFixed(2)} ms more`,
    );
  } finally {
    client.close();
  }
}

export default async function httpBench(): Promise<void> {
  await forEachTarget('http', measure, (r) => measureAt('reference', r.base, r.pid, r.adminToken));
}
