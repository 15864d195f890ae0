// Feature table benchmark: 10,000 features (two environments each, a tag on every tenth, a strategy
// on every third) in SQLite and PostgreSQL, then the admin UI's search shapes through the service
// (filter, order and page in SQL, then the page's rows assembled). Reports p50/p95 per shape.
// BENCH_FEATURES overrides the count; FLAGSTAFF_BENCH_PG_URL (or FLAGSTAFF_TEST_PG_URL) the server.
import { performance } from 'node:perf_hooks';
import { createFlagstaff, type Store, SYSTEM } from '@flagstaff/core';
import { postgresStore } from '@flagstaff/store-postgres';
import { sqliteStore } from '@flagstaff/store-sqlite';

const FEATURES = Number(process.env.BENCH_FEATURES ?? 10_000);
const RUNS = 50;
const WARMUPS = 5;
const START = Date.UTC(2025, 0, 1);

const SHAPES: Record<string, Record<string, string>> = {
  'first page (createdAt)': {},
  'page 100 by name desc': { sortBy: 'name', sortOrder: 'desc', offset: '5000' },
  'lastSeenAt desc, middle page': { sortBy: 'lastSeenAt', sortOrder: 'desc', offset: '5000' },
  'free text': { query: 'checkout-12' },
  'tag + environment order': { tag: 'INCLUDE:simple:team-10', sortBy: 'environment:production' },
  'stale experiments by type': { state: 'IS:stale', type: 'IS:experiment', sortBy: 'type' },
};

async function seed(store: Store): Promise<void> {
  const flagstaff = await createFlagstaff({ store });
  // The seeded instance has the `simple` tag type.
  const t0 = performance.now();
  await store.transaction(async (tx) => {
    for (let i = 0; i < FEATURES; i++) {
      const name = `checkout-${i}`;
      await tx.features.insert({
        name,
        project: 'default',
        type: i % 4 === 0 ? 'experiment' : 'release',
        description: `Feature number ${i}`,
        stale: i % 9 === 0,
        impressionData: false,
        createdAt: new Date(START + i * 60_000).toISOString(),
        archivedAt: null,
        createdByUserId: null,
        lifecycle: { stage: 'initial', enteredStageAt: new Date(START).toISOString() },
      });
      for (const [e, environment] of ['development', 'production'].entries())
        await tx.featureEnvironments.upsert({
          featureName: name,
          environment,
          enabled: (i + e) % 2 === 0,
          variants: [],
          lastSeenAt:
            i % 5 === 0 ? null : new Date(START + 86_400_000 + ((i * 7919) % FEATURES) * 1000).toISOString(),
        });
      if (i % 10 === 0) {
        const tag = { type: 'simple', value: `team-${i % 50}` };
        await tx.tags.ensureTag(tag);
        await tx.tags.addFeatureTag(name, tag);
      }
    }
  });
  console.log(`  seeded ${FEATURES} features in ${Math.round(performance.now() - t0)} ms`);
  for (const [shape, params] of Object.entries(SHAPES)) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < WARMUPS + RUNS; run++) {
      const start = performance.now();
      total = (await flagstaff.featureSearch.search(SYSTEM, params)).total;
      if (run >= WARMUPS) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(
      `  ${shape.padEnd(30)} total ${String(total).padStart(6)}  p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`,
    );
  }
  await flagstaff.close();
}

export default async function run(): Promise<void> {
  console.log('sqlite (:memory:)');
  await seed(await sqliteStore({ filename: ':memory:' }));
  const url = process.env.FLAGSTAFF_BENCH_PG_URL ?? process.env.FLAGSTAFF_TEST_PG_URL;
  if (!url) {
    console.log('postgres: skipped (set FLAGSTAFF_BENCH_PG_URL)');
    return;
  }
  console.log('postgres');
  await seed(
    await postgresStore({
      connectionString: url,
      schema: `flagstaff_bench_fs_${process.pid}`,
      dropSchemaOnClose: true,
    }),
  );
}
