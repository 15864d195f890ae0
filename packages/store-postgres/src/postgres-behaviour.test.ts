import type { NewEvent, Store } from '@flagstaff/core';
import { project, withWriteTransactions } from '@flagstaff/core/testing';
import { createMigrations } from '@flagstaff/store-sql';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { postgresDialect } from './postgres-dialect.js';
import { postgresStore } from './postgres-store.js';
import { freshSchema, pgUrl } from './test-support.js';

const event: NewEvent = {
  type: 'feature-created',
  createdBy: 'ann',
  createdByUserId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** Resolves when `condition` holds, polling for up to two seconds. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(condition()).toBe(true);
}

test('unique violations are recognised by SQLSTATE 23505, never by message', () => {
  const dialect = postgresDialect({ schema: 's' });
  const error = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });
  expect(dialect.classifyError(error('23505', 'x'))).toBe('unique');
  expect(dialect.classifyError(error('23503', 'duplicate key value violates unique constraint'))).toBeNull();
  expect(
    dialect.classifyError(error(undefined, 'duplicate key value violates unique constraint')),
  ).toBeNull();
  expect(dialect.classifyError(error('ECONNREFUSED', 'connect'))).toBe('unavailable');
  expect(dialect.classifyError(error('57P01', 'terminating connection'))).toBe('unavailable');
});

test('an unreachable server gives STORE_UNAVAILABLE quickly, naming the store', async () => {
  const started = Date.now();
  await expect(
    postgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMs: 2000 }),
  ).rejects.toMatchObject({
    name: 'FlagstaffError',
    code: 'STORE_UNAVAILABLE',
    message: expect.stringContaining('postgres'),
  });
  expect(Date.now() - started).toBeLessThan(3000);
});

describe.skipIf(pgUrl === undefined)('PostgreSQL server', () => {
  const admin = new pg.Pool({ connectionString: pgUrl, max: 2 });
  const schemas: string[] = [];
  const schema = (): string => {
    const name = freshSchema();
    schemas.push(name);
    return name;
  };
  afterAll(async () => {
    for (const name of schemas) await admin.query(`drop schema if exists "${name}" cascade`);
    await admin.end();
  });
  const open = (name: string): Promise<Store> => postgresStore({ connectionString: pgUrl!, schema: name });

  test('migrations are idempotent: reopening keeps data and applies nothing twice', async () => {
    const name = schema();
    const first = await open(name);
    await withWriteTransactions(first).projects.insert(project('alpha'));
    await first.close();
    const second = await open(name);
    expect((await second.projects.list()).map((p) => p.id)).toEqual(['alpha']);
    expect(await second.roles.list()).toHaveLength(5);
    await second.close();
    const { rows } = await admin.query(`select name from "${name}".flagstaff_migrations`);
    expect(rows.map((r: { name: string }) => r.name).sort()).toEqual(
      Object.keys(createMigrations(postgresDialect({ schema: '' }))).sort(),
    );
  });

  test('stores opening one new schema at once migrate it once (advisory lock)', async () => {
    const name = schema();
    const stores = await Promise.all([1, 2, 3, 4].map(() => open(name)));
    await withWriteTransactions(stores[0]!).projects.insert(project('alpha'));
    expect(await stores[3]!.projects.get('alpha')).not.toBeNull();
    await Promise.all(stores.map((s) => s.close()));
    const { rows } = await admin.query(`select count(*)::int as n from "${name}".flagstaff_migrations`);
    expect(rows).toEqual([{ n: Object.keys(createMigrations(postgresDialect({ schema: '' }))).length }]);
  });

  test('regression: an open whose lock connection is refused retries, and never migrates unlocked', async () => {
    // It used to go on without the open lock when taking it failed, so two processes could migrate
    // one schema at once under load ("schema does not exist" from kysely's introspector).
    // A pool whose first `failures` tries at the open lock fail as a refused connection would;
    // every other statement works, so an open that skipped the lock would succeed.
    const refusing = (failures: number): pg.Pool => {
      const pool = new pg.Pool({ connectionString: pgUrl, max: 4 });
      const connect = pool.connect.bind(pool);
      let left = failures;
      const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      Object.assign(pool, {
        connect: async () => {
          const client = await connect();
          const query = client.query.bind(client);
          Object.assign(client, {
            query: (text: unknown, ...rest: unknown[]) =>
              typeof text === 'string' && text.includes('pg_advisory_lock(') && left-- > 0
                ? Promise.reject(refused())
                : (query as (...args: unknown[]) => unknown)(text, ...rest),
          });
          return client;
        },
      });
      return pool;
    };
    const failing = refusing(3);
    const name = schema();
    await expect(postgresStore({ pool: failing, schema: name })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining(name),
    });
    await failing.end();
    const { rows } = await admin.query('select 1 from information_schema.schemata where schema_name = $1', [
      name,
    ]);
    expect(rows).toEqual([]);

    const flaky = refusing(1);
    const store = await postgresStore({ pool: flaky, schema: name });
    await withWriteTransactions(store).projects.insert(project('alpha'));
    await store.close();
    await flaky.end();
  });

  test('a later commit never gets a smaller event id, across store instances', async () => {
    const name = schema();
    const [one, two] = await Promise.all([open(name), open(name)]);
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstId = 0;
    const first = one!.transaction(async (tx) => {
      firstId = (await tx.events.append([event]))[0]!.id;
      await held;
    });
    await eventually(() => firstId > 0);
    let secondDone = false;
    const second = withWriteTransactions(two!)
      .events.append([event])
      .then((events) => {
        secondDone = true;
        return events[0]!.id;
      });
    await new Promise((r) => setTimeout(r, 200));
    expect(secondDone).toBe(false);
    release();
    await first;
    expect(await second).toBeGreaterThan(firstId);
    await Promise.all([one!.close(), two!.close()]);
  });

  test('a caught CONFLICT leaves the transaction usable', async () => {
    const store = await open(schema());
    await withWriteTransactions(store).projects.insert(project('taken'));
    await store.transaction(async (tx) => {
      await expect(tx.projects.insert(project('taken'))).rejects.toMatchObject({ code: 'CONFLICT' });
      await tx.projects.insert(project('fresh'));
    });
    expect(await store.projects.get('fresh')).not.toBeNull();
    await store.close();
  });

  test('listeners hear appends of other store instances through LISTEN/NOTIFY, committed only', async () => {
    const name = schema();
    const [listening, writing] = await Promise.all([open(name), open(name)]);
    let heard = 0;
    const unsubscribe = listening!.onEventsAppended!(() => heard++);
    await new Promise((r) => setTimeout(r, 200));
    await expect(
      writing!.transaction(async (tx) => {
        await tx.events.append([event]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow();
    await withWriteTransactions(writing!).events.append([event]);
    await eventually(() => heard === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toBe(1);
    unsubscribe();
    await Promise.all([listening!.close(), writing!.close()]);
  });

  test('parameterized statements are prepared once per connection and then only executed', async () => {
    // Two connections: one the store keeps for LISTEN, one for everything else.
    const pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
    const store = await postgresStore({ pool, schema: schema() });
    const prepared = async (): Promise<string[]> => {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ name: string; statement: string }>(
          'select name, statement from pg_prepared_statements order by name',
        );
        return rows.filter((r) => r.name.startsWith('flagstaff_')).map((r) => r.statement);
      } finally {
        client.release();
      }
    };
    await withWriteTransactions(store).projects.insert(project('alpha'));
    await store.projects.get('alpha');
    const first = await prepared();
    expect(first.some((sql) => sql.startsWith('select * from "projects" where "id" = $1'))).toBe(true);
    await withWriteTransactions(store).projects.insert(project('beta'));
    await store.projects.get('beta');
    expect(await prepared()).toEqual(first);
    await store.close();
    await pool.end();
  });

  test('a pool passed in is used, not ended, by the store', async () => {
    const pool = new pg.Pool({ connectionString: pgUrl, max: 3 });
    const store = await postgresStore({ pool, schema: schema() });
    await withWriteTransactions(store).projects.insert(project('alpha'));
    await store.close();
    await expect(store.projects.list()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
