// Addon delivery: (1) the time to drain a backlog of 10,000 events to a local webhook receiver, from
// a cold start of the process that delivers them (fan-out into the addon's queue, one POST per event,
// each attempt logged); (2) deliveries per second to a fast receiver while a second addon's receiver
// takes 1 s per answer, next to the same fast receiver alone. SQLite and PostgreSQL.
// BENCH_DELIVERY_EVENTS overrides the backlog.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, type NewEvent, type Store, SYSTEM } from '@flagstaff/core';
import { postgresStore } from '@flagstaff/store-postgres';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { withPostgresDatabase } from '../postgres-database.js';

const BACKLOG = Number(process.env.BENCH_DELIVERY_EVENTS ?? 10_000);
const NEIGHBOUR_EVENTS = 2_000;

/** A receiver answering 200 after `delayMs`; counts what it got and when the last arrived. */
async function receiver(delayMs = 0) {
  let count = 0;
  let lastAt = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      lastAt = performance.now();
      if (delayMs) setTimeout(() => res.end(), delayMs);
      else res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    lastAt: () => lastAt,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The receivers listen on loopback, which the outbound policy refuses unless allow-listed. */
const webhookAllowedHosts = ['127.0.0.1'];

const hook = (url: string) => ({
  provider: 'webhook',
  parameters: { url },
  events: ['feature-created' as const],
});

/** Appends `count` feature-created events straight to the log (what a burst of writes leaves). */
async function appendBacklog(store: Store, count: number): Promise<void> {
  const at = new Date(Date.now() + 1000).toISOString();
  for (let i = 0; i < count; i += 500) {
    const batch: NewEvent[] = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
      type: 'feature-created',
      createdBy: 'bench',
      createdByUserId: null,
      createdAt: at,
      project: 'default',
      featureName: `backlog-${i + j}`,
      data: { name: `backlog-${i + j}`, type: 'release', project: 'default' },
    }));
    await store.transaction((tx) => tx.events.append(batch).then(() => undefined));
  }
}

async function waitFor(check: () => boolean, limitMs: number): Promise<boolean> {
  const until = performance.now() + limitMs;
  while (!check()) {
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

async function drain(label: string, open: () => Promise<Store>): Promise<void> {
  const fast = await receiver();
  try {
    // The addon exists and delivery has a position; then the process is gone while events pile up.
    const setup = await createFlagstaff({ store: await open(), webhookAllowedHosts });
    await setup.addons.create(SYSTEM, hook(fast.url));
    await setup.close();
    const store = await open();
    await appendBacklog(store, BACKLOG);
    const started = performance.now();
    const flagstaff = await createFlagstaff({ store, webhookAllowedHosts });
    await flagstaff.addons.deliverPending();
    const done = await waitFor(() => fast.count() >= BACKLOG, 600_000);
    const seconds = (fast.lastAt() - started) / 1000;
    const rss = process.memoryUsage().rss / 2 ** 20;
    console.log(
      `${label.padEnd(10)} drain ${BACKLOG.toLocaleString('en')} events: ${done ? `${seconds.toFixed(2)} s, ${Math.round(BACKLOG / seconds).toLocaleString('en')} deliveries/s` : 'timed out'} (RSS ${rss.toFixed(0)} MB)`,
    );
    await flagstaff.close();
  } finally {
    await fast.close();
  }
}

async function neighbour(label: string, open: () => Promise<Store>, withSlow: boolean): Promise<number> {
  const fast = await receiver();
  const slow = await receiver(1_000);
  try {
    const setup = await createFlagstaff({ store: await open(), webhookAllowedHosts });
    if (withSlow) await setup.addons.create(SYSTEM, hook(slow.url));
    await setup.addons.create(SYSTEM, hook(fast.url));
    await setup.close();
    const store = await open();
    await appendBacklog(store, NEIGHBOUR_EVENTS);
    const started = performance.now();
    const flagstaff = await createFlagstaff({ store, webhookAllowedHosts });
    await flagstaff.addons.deliverPending();
    await waitFor(() => fast.count() >= NEIGHBOUR_EVENTS, 300_000);
    const rate = NEIGHBOUR_EVENTS / ((fast.lastAt() - started) / 1000);
    console.log(
      `${label.padEnd(10)} fast receiver ${withSlow ? 'beside a 1 s receiver' : 'alone              '}: ${Math.round(rate).toLocaleString('en')} deliveries/s${withSlow ? ` (the slow one got ${slow.count()} meanwhile)` : ''}`,
    );
    await flagstaff.close();
    return rate;
  } finally {
    await fast.close();
    await slow.close();
  }
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-bench-delivery-'));
  try {
    let n = 0;
    const sqlite = () => {
      const filename = join(dir, `delivery-${n++}.db`);
      return () => sqliteStore({ filename });
    };
    await drain('sqlite', sqlite());
    const alone = await neighbour('sqlite', sqlite(), false);
    const beside = await neighbour('sqlite', sqlite(), true);
    console.log(`sqlite     fast receiver beside a slow one / alone: ${(beside / alone).toFixed(2)}×`);
    let schema = 0;
    await withPostgresDatabase('delivery', async (url) => {
      const pg = () => {
        const name = `delivery_${schema++}`;
        return () => postgresStore({ connectionString: url, schema: name });
      };
      await drain('postgres', pg());
      const pgAlone = await neighbour('postgres', pg(), false);
      const pgBeside = await neighbour('postgres', pg(), true);
      console.log(`postgres   fast receiver beside a slow one / alone: ${(pgBeside / pgAlone).toFixed(2)}×`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
