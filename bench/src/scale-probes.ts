// Probes of the scale suite: timed HTTP calls against a standalone server, an SDK stream, and the
// server's resident memory. Each returns plain figures; the suite prints them.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { createClient } from './http-client.js';

export type Client = ReturnType<typeof createClient>;

export const median = (xs: readonly number[]): number =>
  xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Resident memory of a process in MB, from /proc (Linux); NaN elsewhere. */
export function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The server settings that let `heapSnapshot` ask it for a snapshot (written into `dir`). */
export const heapSnapshotSettings = (dir: string) => ({
  NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`,
});

/**
 * Asks a server started with `heapSnapshotSettings(dir)` for a heap snapshot and waits until the
 * file is written (its size holds for a second); returns its path.
 */
export async function heapSnapshot(child: ChildProcess, dir: string): Promise<string> {
  const snapshots = () => new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  const before = snapshots();
  child.kill('SIGUSR2');
  let last = -1;
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const file = [...snapshots()].find((f) => !before.has(f));
    if (!file) continue;
    const size = statSync(join(dir, file)).size;
    if (size > 0 && size === last) return join(dir, file);
    last = size;
  }
  throw new Error('no heap snapshot was written within 10 minutes');
}

/** Switches one feature on and off in `development`, alternating from `on`; resolves with the admin answer. */
export function createToggle(admin: Client, feature: string, on: boolean) {
  return {
    async flip(): Promise<void> {
      on = !on;
      const res = await admin.request(
        'POST',
        `/api/admin/projects/default/features/${feature}/environments/development/${on ? 'on' : 'off'}`,
      );
      if (res.status >= 300) throw new Error(`toggle → ${res.status}`);
    },
  };
}

export type Toggle = ReturnType<typeof createToggle>;

export interface Timed {
  ms: number;
  status: number;
  bytes: number;
}

/** One call, timed until its whole body arrived. */
export async function timed(client: Client, method: string, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const res = await client.request(method, path, body === undefined ? undefined : JSON.stringify(body));
  return { ms: performance.now() - started, status: res.status, bytes: res.body.byteLength };
}

/** `runs` sequential calls: the median time, the last status and size. */
export async function repeated(
  client: Client,
  runs: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<Timed> {
  const times: number[] = [];
  let last: Timed = { ms: 0, status: 0, bytes: 0 };
  for (let i = 0; i < runs; i++) {
    last = await timed(client, method, path, body);
    times.push(last.ms);
  }
  return { ...last, ms: median(times) };
}

/** GET with headers on a fresh keep-alive-less request; status, ETag and body size. */
export function getWithHeaders(
  base: string,
  path: string,
  headers: Record<string, string>,
  agent: http.Agent,
): Promise<{ status: number; etag: string; bytes: number; headersAt: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers, agent }, (res) => {
      const headersAt = performance.now();
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.byteLength;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? ''), bytes, headersAt }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * Toggles `feature` `rounds` times; after each admin answer, polls `/api/client/features` with the
 * ETag held until a new one comes back. Medians from the admin call's answer to the new ETag's
 * headers, and to the end of its body.
 */
export async function toggleToEtag(
  base: string,
  toggle: Toggle,
  clientToken: string,
  rounds: number,
  encoding: 'identity' | 'gzip' = 'identity',
): Promise<{ p50: number; max: number; headersP50: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: clientToken, 'accept-encoding': encoding };
  try {
    let { etag } = await getWithHeaders(base, '/api/client/features', headers, agent);
    const latencies: number[] = [];
    const toHeaders: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await toggle.flip();
      const answered = performance.now();
      const deadline = answered + 30_000;
      for (;;) {
        const got = await getWithHeaders(
          base,
          '/api/client/features',
          { ...headers, 'if-none-match': etag },
          agent,
        );
        if (got.status === 200 && got.etag !== etag) {
          etag = got.etag;
          toHeaders.push(got.headersAt - answered);
          break;
        }
        if (performance.now() > deadline)
          throw new Error(
            `no new ETag within 30 s (round ${round}: ${got.status} ${got.etag}, held ${etag})`,
          );
      }
      latencies.push(performance.now() - answered);
    }
    return { p50: median(latencies), max: Math.max(...latencies), headersP50: median(toHeaders) };
  } finally {
    agent.destroy();
  }
}

/** Opens an SDK stream; `next()` resolves at the arrival of the next `unleash-updated` frame. */
function openStream(base: string, token: string) {
  let connected: () => void = () => {};
  const open = new Promise<void>((r) => {
    connected = r;
  });
  let waiting: ((at: number) => void) | null = null;
  let tail = '';
  const req = http.get(
    `${base}/api/client/streaming`,
    { headers: { authorization: token }, agent: false },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = tail + chunk;
        if (text.includes('event: unleash-connected')) connected();
        if (text.includes('event: unleash-updated')) {
          waiting?.(performance.now());
          waiting = null;
          tail = '';
        } else tail = text.slice(-64);
      });
    },
  );
  req.on('error', () => {});
  return {
    open,
    next: () =>
      new Promise<number>((resolve) => {
        waiting = resolve;
      }),
    close: () => req.destroy(),
  };
}

/** A streaming SDK: from each toggle's answer to its `unleash-updated` frame. */
export async function streamLatency(
  base: string,
  toggle: Toggle,
  clientToken: string,
  rounds: number,
): Promise<{ p50: number; max: number; connectMs: number }> {
  const started = performance.now();
  const stream = openStream(base, clientToken);
  try {
    await Promise.race([
      stream.open,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the stream sent no unleash-connected in 30 s')), 30_000),
      ),
    ]);
    const connectMs = performance.now() - started;
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const arrived = stream.next();
      await toggle.flip();
      const answered = performance.now();
      const at = await Promise.race([
        arrived,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error('no stream update in 30 s')), 30_000),
        ),
      ]);
      // A frame can come before the answer (the server sends it before the HTTP reply finishes).
      latencies.push(Math.max(0, at - answered));
    }
    return { p50: median(latencies), max: Math.max(...latencies), connectMs };
  } finally {
    stream.close();
  }
}

/**
 * Where a process's resident memory is, from /proc/<pid>/smaps (Linux; empty elsewhere): glibc's
 * main heap (`[heap]`), anonymous mappings under 1 MB (mostly V8's 256 kB heap pages), anonymous
 * mappings from 1 MB (V8's large objects and code space, mapped buffers, malloc's thread arenas),
 * files (the node binary and libraries) and the rest, in MB.
 */
export function memoryMaps(pid: number | undefined): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return {};
  }
  // Every kind, so the rows of each size line up.
  const out: Record<string, number> = {
    'glibc [heap]': 0,
    'anonymous < 1 MB': 0,
    'anonymous >= 1 MB': 0,
    files: 0,
    other: 0,
  };
  let kind = 'other';
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const size = Number.parseInt(header[2]!, 16) - Number.parseInt(header[1]!, 16);
      const path = header[3]!;
      kind =
        path === '[heap]'
          ? 'glibc [heap]'
          : path.startsWith('/')
            ? 'files'
            : path === ''
              ? size < 1 << 20
                ? 'anonymous < 1 MB'
                : 'anonymous >= 1 MB'
              : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return out;
}
