// Sign-ins during a flood of bogus ones (unknown names: each a 32 MiB decoy scrypt): how long a
// valid login takes alone, during 40 parallel bogus logins from one address, and from 40
// addresses, with the hash bounds at their defaults and lifted (as before they existed).
// Loopback only; every address is in 127.0.0.0/8.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const ADMIN = `*:*.${'cd78'.repeat(16)}`;
const PASSWORD = 'Bench-Login-Flood-42';
const FLOOD = 40;
const ROUNDS = 5;
const UNBOUNDED = {
  FLAGSTAFF_LOGIN_MAX_HASHES: '1000',
  FLAGSTAFF_LOGIN_MAX_QUEUED: '1000',
  FLAGSTAFF_LOGIN_MAX_HASHES_PER_CLIENT: '1000',
};

function login(base: string, username: string, password: string, from: string): Promise<number> {
  const url = new URL(`${base}/auth/simple/login`);
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]): number => Math.max(...xs);

/** One round: the flood is fired, then the valid login; returns its latency and the flood's statuses. */
async function round(base: string, addresses: (i: number) => string) {
  const flood = Array.from({ length: FLOOD }, (_, i) =>
    login(base, `nobody-${i}-${Math.random().toString(36).slice(2)}`, 'Wrong-Secret-42', addresses(i)),
  );
  const started = performance.now();
  const status = await login(base, 'admin', PASSWORD, '127.0.0.1');
  const ms = performance.now() - started;
  const statuses = await Promise.all(flood);
  return { ms, status, limited: statuses.filter((s) => s === 429).length };
}

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-bench-login-'));
  const { base, child } = await startServerProcess({
    DATABASE_URL: join(dir, 'flagstaff.db'),
    FLAGSTAFF_ADMIN_TOKEN: ADMIN,
    FLAGSTAFF_ADMIN_PASSWORD: PASSWORD,
    ...env,
  });
  try {
    const alone: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      if ((await login(base, 'admin', PASSWORD, '127.0.0.1')) !== 200) throw new Error('login failed');
      alone.push(performance.now() - started);
    }
    const cases: [string, (i: number) => string][] = [
      ['one address', () => '127.0.0.2'],
      ['40 addresses', (i) => `127.0.1.${i + 1}`],
    ];
    console.log(`${label}: valid login alone median ${median(alone).toFixed(0)} ms`);
    for (const [name, addresses] of cases) {
      const rounds = [];
      for (let i = 0; i < ROUNDS; i++) rounds.push(await round(base, addresses));
      const ms = rounds.map((r) => r.ms);
      console.log(
        `${label}: valid login during ${FLOOD} bogus logins from ${name}: median ${median(ms).toFixed(0)} ms, max ${max(ms).toFixed(0)} ms; statuses ${rounds.map((r) => r.status).join(',')}; flood 429s per round ${rounds.map((r) => r.limited).join(',')}`,
      );
    }
  } finally {
    await stopServerProcess(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function loginFlood(): Promise<void> {
  await measure('bounded (defaults)', {});
  await measure('unbounded (as before)', UNBOUNDED);
}
