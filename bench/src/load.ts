// A closed-loop HTTP load generator on Node's own client (llhttp, in C). autocannon parses bodies
// with http-parser-js, which reads binary bodies ~20× slower than ASCII ones, so a gzip answer
// measured the load generator rather than the server; this one reads both at the same speed.
import http from 'node:http';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  connections?: number;
  durationS?: number;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytesPerSecond: number;
  statuses: Map<number, number>;
  errors: number;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Keeps `connections` requests in flight for `durationS` seconds; each reads its whole body. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const connections = options.connections ?? 10;
  const durationMs = (options.durationS ?? 5) * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(options.url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers = {
    ...options.headers,
    ...(body === undefined ? {} : { 'content-length': String(body.byteLength) }),
  };
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let bytes = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;

  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.byteLength;
        });
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  const worker = async () => {
    while (performance.now() < deadline) await once();
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    bytesPerSecond: bytes / elapsedS,
    statuses,
    errors,
  };
}
