import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { pgDialect } from './postgres-driver.js';
import { pgUrl } from './test-support.js';

describe.skipIf(pgUrl === undefined)('the driver on a PostgreSQL server', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });

  /** Runs one parameterized statement `runs` times on one connection; the server's plan counts for it. */
  async function plansOf(customPlans: boolean, runs: number) {
    const pool = new pg.Pool({ connectionString: pgUrl, max: 1 });
    pools.push(pool);
    const db = new Kysely<unknown>({
      dialect: pgDialect({
        pool,
        ownsPool: false,
        schema: undefined,
        instanceId: 'driver-test',
        statementTimeoutMs: 0,
        customPlans,
        timeoutInForce: () => true,
      }),
    });
    for (let i = 0; i < runs; i++)
      expect((await sql<{ n: number }>`select ${i}::int + 1 as n`.execute(db)).rows).toEqual([{ n: i + 1 }]);
    // No parameters: the simple protocol, on the same (only) connection.
    const { rows } = await sql<{
      generic: string;
      custom: string;
    }>`select generic_plans as generic, custom_plans as custom from pg_prepared_statements where statement like '%::int + 1 as n'`.execute(
      db,
    );
    return rows.map((r) => ({ generic: Number(r.generic), custom: Number(r.custom) }));
  }

  // Regression: after five runs PostgreSQL may keep one generic plan for a prepared statement; on
  // skewed data that plan read every event for each configuration type never written (2.5 s a toggle).
  test('with custom plans, every run of a prepared statement is planned for its values', async () => {
    expect(await plansOf(true, 8)).toEqual([{ generic: 0, custom: 8 }]);
  });

  test('without them the server is free to settle on a generic plan (a pool the store does not own)', async () => {
    const [plans] = await plansOf(false, 8);
    expect(plans?.generic).toBeGreaterThan(0);
  });
});
