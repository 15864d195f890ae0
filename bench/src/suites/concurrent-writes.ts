// Concurrent admin writes on one PostgreSQL database: two standalone server processes, eight
// writers each, every writer on its own kept-alive connection, each making independent changes
// (its own features: create, add a strategy, switch the environment on). Prints writes/s and the
// latency of each write (p50/p99), which show how much the store's transactions queue behind each other.
import { createClient } from '../http-client.js';
import { withPostgresDatabase } from '../postgres-database.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'ab12'.repeat(16)}`;
const PROCESSES = 2;
const WRITERS_PER_PROCESS = 8;
/** Features each writer creates; three writes apiece. */
const FEATURES_PER_WRITER = Number(process.env.FLAGSTAFF_BENCH_FEATURES_PER_WRITER ?? 40);
/** Features created first by every writer and not timed (connections, JIT, prepared statements). */
const WARMUP_FEATURES = 5;

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

type Client = ReturnType<typeof createClient>;

async function write(client: Client, method: 'POST' | 'PUT', path: string, body?: unknown): Promise<void> {
  const res = await client.request(method, path, body === undefined ? undefined : JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${res.body.toString('utf8')}`);
}

/** One writer: `count` features of its own, each created, given a strategy and switched on. */
async function writer(client: Client, prefix: string, count: number, latencies: number[] | null) {
  const base = '/api/admin/projects/default/features';
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${i}`;
    const calls: [method: 'POST' | 'PUT', path: string, body?: unknown][] = [
      ['POST', base, { name, type: 'release' }],
      [
        'POST',
        `${base}/${name}/environments/development/strategies`,
        { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: name } },
      ],
      ['POST', `${base}/${name}/environments/development/on`],
    ];
    for (const [method, path, body] of calls) {
      const t = performance.now();
      await write(client, method, path, body);
      latencies?.push(performance.now() - t);
    }
  }
}

async function run(databaseUrl: string): Promise<void> {
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  const clients: Client[] = [];
  try {
    // One after the other, so the second finds the schema migrated.
    for (let p = 0; p < PROCESSES; p++)
      servers.push(await startServerProcess({ DATABASE_URL: databaseUrl, FLAGSTAFF_ADMIN_TOKEN: ADMIN }));
    const writers = servers.flatMap(({ base }, p) =>
      Array.from({ length: WRITERS_PER_PROCESS }, (_, w) => {
        const client = createClient(base, { authorization: ADMIN });
        clients.push(client);
        return { client, prefix: `p${p}-w${w}` };
      }),
    );
    await Promise.all(writers.map((w) => writer(w.client, `${w.prefix}-warm`, WARMUP_FEATURES, null)));
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(writers.map((w) => writer(w.client, w.prefix, FEATURES_PER_WRITER, latencies)));
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `postgres   ${PROCESSES} processes × ${WRITERS_PER_PROCESS} writers, ${latencies.length} writes in ${seconds.toFixed(2)} s: ` +
        `${(latencies.length / seconds).toFixed(0)} writes/s, latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
    );
  } finally {
    for (const client of clients) client.close();
    await Promise.all(servers.map(({ child }) => stopServerProcess(child)));
  }
}

export default async function concurrentWritesBench(): Promise<void> {
  await withPostgresDatabase('concurrent', run);
}
