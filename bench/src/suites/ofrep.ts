// OFREP's event stream: how long an admin toggle takes to reach a provider as `refetchEvaluation`,
// counted from the toggle's answer to the event's arrival, over 50 toggles on loopback. Printed,
// never asserted.
import http from 'node:http';
import { createClient } from '../http-client.js';
import { forEachTarget } from '../reference.js';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'ab12'.repeat(16)}`;
const TOGGLES = 50;

/** Opens the event stream; `next()` resolves with the arrival time of the next refetch event. */
function openEvents(url: string) {
  let waiting: ((at: number) => void) | null = null;
  let opened: () => void = () => {};
  const open = new Promise<void>((r) => {
    opened = r;
  });
  let tail = '';
  const req = http.get(url, { agent: false }, (res) => {
    if (res.statusCode !== 200) throw new Error(`event stream → ${res.statusCode}`);
    res.setEncoding('utf8');
    opened();
    res.on('data', (chunk: string) => {
      const text = tail + chunk;
      if (text.includes('"refetchEvaluation"')) {
        waiting?.(performance.now());
        waiting = null;
        tail = '';
      } else tail = text.slice(-64);
    });
  });
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

async function measure(label: string, databaseUrl: string): Promise<void> {
  const { base, child } = await startServerProcess({
    DATABASE_URL: databaseUrl,
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
  });
  const admin = createClient(base, { authorization: ADMIN, 'content-type': 'application/json' });
  try {
    const json = async (method: string, path: string, body?: unknown) => {
      const res = await admin.request(method, path, body === undefined ? undefined : JSON.stringify(body));
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${res.body.toString()}`);
      return res.body.length > 0 ? JSON.parse(res.body.toString()) : undefined;
    };
    const at = '/api/admin/projects/default/features/ofrep-bench/environments/development';
    await json('POST', '/api/admin/projects/default/features', { name: 'ofrep-bench' });
    await json('POST', `${at}/strategies`, { name: 'default' });
    const { secret } = await json('POST', '/api/admin/api-tokens', {
      tokenName: 'ofrep-bench',
      type: 'frontend',
      environment: 'development',
    });
    const bulk = await fetch(`${base}/ofrep/v1/evaluate/flags`, {
      method: 'POST',
      headers: { authorization: secret, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { targetingKey: 'bench' } }),
    });
    const { eventStreams } = (await bulk.json()) as { eventStreams: { endpoint: { requestUri: string } }[] };
    const events = openEvents(new URL(eventStreams[0]!.endpoint.requestUri, base).href);
    await events.open;
    const latencies: number[] = [];
    for (let round = 0; round < TOGGLES; round++) {
      const arrived = events.next();
      await json('POST', `${at}/${round % 2 === 0 ? 'on' : 'off'}`);
      const answered = performance.now();
      latencies.push((await arrived) - answered);
    }
    events.close();
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    console.log(
      `[${label}] OFREP refetchEvaluation after a toggle's answer: p50 ${p(0.5).toFixed(1)} ms, ` +
        `p90 ${p(0.9).toFixed(1)} ms, max ${p(1).toFixed(1)} ms (${TOGGLES} toggles, loopback)`,
    );
  } finally {
    admin.close();
    await stopServerProcess(child);
  }
}

export default async function ofrepBench(): Promise<void> {
  await forEachTarget('ofrep', measure, async () => {});
}
