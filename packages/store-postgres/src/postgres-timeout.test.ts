import { project, withWriteTransactions } from '@flagstaff/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { postgresDialect } from './postgres-dialect.js';
import { explainCancel } from './postgres-driver.js';
import { postgresStore } from './postgres-store.js';
import { freshSchema, pgUrl } from './test-support.js';

test('a cancelled statement (SQLSTATE 57014) is unavailability, worded with the timeout in force', () => {
  const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
  });
  expect(postgresDialect({ schema: 's' }).classifyError(cancelled)).toBe('unavailable');
  const explained = explainCancel(cancelled, 250) as Error & { code: string };
  expect(explained.code).toBe('57014');
  expect(explained.message).toBe(
    "canceling statement due to statement timeout; the store's statement timeout is 250 ms (statementTimeoutMs)",
  );
  expect((explainCancel(cancelled, 0) as Error).message).toContain('SQLSTATE 57014');
  const other = Object.assign(new Error('syntax'), { code: '42601' });
  expect(explainCancel(other, 250)).toBe(other);
});

test('statementTimeoutMs must be a whole number of milliseconds, 0 or more', async () => {
  for (const statementTimeoutMs of [-1, 1.5, Number.NaN])
    await expect(
      postgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/none', statementTimeoutMs }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('statementTimeoutMs') });
});

describe.skipIf(pgUrl === undefined)('PostgreSQL server: statement timeout', () => {
  const schemas: string[] = [];
  const clients: pg.Client[] = [];
  afterAll(async () => {
    const admin = await connect();
    for (const name of schemas) await admin.query(`drop schema if exists "${name}" cascade`);
    for (const client of clients) await client.end();
  });
  const schema = (): string => {
    const name = freshSchema();
    schemas.push(name);
    return name;
  };
  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    clients.push(client);
    return client;
  }
  /** Holds an exclusive lock on the schema's projects table until the returned function is called. */
  async function lockProjects(name: string): Promise<() => Promise<void>> {
    const blocker = await connect();
    await blocker.query('begin');
    await blocker.query(`lock table "${name}".projects in access exclusive mode`);
    return async () => {
      await blocker.query('rollback');
    };
  }

  test('a statement running past it fails with STORE_UNAVAILABLE naming store and timeout; the store recovers', async () => {
    const name = schema();
    const store = await postgresStore({ connectionString: pgUrl!, schema: name, statementTimeoutMs: 300 });
    const unlock = await lockProjects(name);
    try {
      const failure = {
        name: 'FlagstaffError',
        code: 'STORE_UNAVAILABLE',
        message: expect.stringMatching(
          new RegExp(`^Store "postgres:${name}" is unavailable: .*statement timeout is 300 ms`),
        ),
      };
      await expect(store.projects.list()).rejects.toMatchObject(failure);
      // A write runs in a transaction of its own: it is rolled back and reported the same way.
      await expect(withWriteTransactions(store).projects.insert(project('alpha'))).rejects.toMatchObject(
        failure,
      );
    } finally {
      await unlock();
    }
    expect(await store.projects.list()).toEqual([]);
    await withWriteTransactions(store).projects.insert(project('alpha'));
    expect((await store.projects.list()).map((p) => p.id)).toEqual(['alpha']);
    await store.close();
  });

  test('0 sets none: a statement waits as long as it must', async () => {
    const name = schema();
    const store = await postgresStore({ connectionString: pgUrl!, schema: name, statementTimeoutMs: 0 });
    const unlock = await lockProjects(name);
    let settled = false;
    const listed = store.projects.list().finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(settled).toBe(false);
    await unlock();
    expect(await listed).toEqual([]);
    await store.close();
  });

  test('migrations at open are exempt: waiting for another process to migrate is not cut short', async () => {
    const holder = await connect();
    // kysely's migration lock, as a process migrating the database holds it.
    await holder.query('select pg_advisory_lock(3853314791062309107)');
    const opening = postgresStore({ connectionString: pgUrl!, schema: schema(), statementTimeoutMs: 200 });
    await new Promise((r) => setTimeout(r, 700));
    await holder.query('select pg_advisory_unlock(3853314791062309107)');
    const store = await opening;
    expect(await store.projects.list()).toEqual([]);
    await store.close();
  });
});
