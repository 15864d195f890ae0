import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '@flagstaff/core';
import { project, withWriteTransactions } from '@flagstaff/core/testing';
import { createMigrations, type Database as StoreDatabase } from '@flagstaff/store-sql';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import { sqliteDialect } from './sqlite-dialect.js';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-sqlite-behaviour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = (): string => join(dir, `db-${++n}.sqlite`);

const event: NewEvent = {
  type: 'feature-created',
  createdBy: 'ann',
  createdByUserId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** Holds the file's write lock from another process for `ms`; resolves once the lock is held. */
function holdWriteLock(file: string, ms: number): Promise<{ done: Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('begin immediate');
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
    db.exec('commit');
    db.close();`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve({ done });
    });
    child.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}

describe('sqlite store', () => {
  test('migrations are idempotent: reopening keeps data and applies nothing twice', async () => {
    const file = freshFile();
    const first = await sqliteStore({ filename: file });
    await withWriteTransactions(first).projects.insert(project('alpha'));
    await first.close();
    const second = await sqliteStore({ filename: file });
    expect((await second.projects.list()).map((p) => p.id)).toEqual(['alpha']);
    expect(await second.roles.list()).toHaveLength(5);
    await second.close();
    const raw = new Database(file, { readonly: true });
    const applied = raw.prepare('select name from flagstaff_migrations').all() as { name: string }[];
    expect(applied.map((r) => r.name).sort()).toEqual(Object.keys(createMigrations(sqliteDialect)).sort());
    raw.close();
  });

  test('several stores opening one new file at once all succeed', async () => {
    const file = freshFile();
    const stores = await Promise.all([1, 2, 3].map(() => sqliteStore({ filename: file })));
    await withWriteTransactions(stores[0]!).projects.insert(project('alpha'));
    expect(await stores[2]!.projects.get('alpha')).not.toBeNull();
    await Promise.all(stores.map((s) => s.close()));
  });

  test('a write waits for another process holding the lock, within the busy timeout', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file, busyTimeoutMs: 5000 });
    const { done } = await holdWriteLock(file, 400);
    const started = Date.now();
    await withWriteTransactions(store).projects.insert(project('alpha'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await store.projects.get('alpha')).not.toBeNull();
    await done;
    await store.close();
  });

  test('a lock held past the busy timeout gives STORE_UNAVAILABLE, and nothing is written', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file, busyTimeoutMs: 100 });
    const { done } = await holdWriteLock(file, 1500);
    await expect(withWriteTransactions(store).projects.insert(project('alpha'))).rejects.toMatchObject({
      name: 'FlagstaffError',
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining(`sqlite:${file}`),
    });
    await done;
    expect(await store.projects.get('alpha')).toBeNull();
    await withWriteTransactions(store).projects.insert(project('alpha'));
    await store.close();
  });

  test('a file that cannot be opened gives STORE_UNAVAILABLE naming the store', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, 'x');
    const filename = join(blocker, 'flags.db');
    await expect(sqliteStore({ filename })).rejects.toMatchObject({
      name: 'FlagstaffError',
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining(`sqlite:${filename}`),
    });
  });

  test('unique violations are recognised by error code, never by message', () => {
    const error = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });
    expect(sqliteDialect.classifyError(error('SQLITE_CONSTRAINT_UNIQUE', 'x'))).toBe('unique');
    expect(sqliteDialect.classifyError(error('SQLITE_CONSTRAINT_PRIMARYKEY', 'x'))).toBe('unique');
    expect(
      sqliteDialect.classifyError(error('SQLITE_CONSTRAINT_NOTNULL', 'UNIQUE constraint failed')),
    ).toBeNull();
    expect(sqliteDialect.classifyError(error(undefined, 'UNIQUE constraint failed: projects.id'))).toBeNull();
    expect(sqliteDialect.classifyError(error('SQLITE_BUSY', 'database is locked'))).toBe('unavailable');
  });

  test('listeners hear committed appends only, once per transaction, until unsubscribed', async () => {
    const store = await sqliteStore({ filename: ':memory:' });
    let heard = 0;
    const unsubscribe = store.onEventsAppended!(() => heard++);
    await withWriteTransactions(store).events.append([event, event]);
    await store.transaction(async (tx) => {
      await tx.events.append([event]);
      await tx.events.append([event]);
    });
    await store.transaction((tx) => tx.projects.insert(project('alpha')));
    await expect(
      store.transaction(async (tx) => {
        await tx.events.append([event]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(heard).toBe(2);
    unsubscribe();
    await withWriteTransactions(store).events.append([event]);
    expect(heard).toBe(2);
    await store.close();
    expect(() => store.onEventsAppended!(() => {})).toThrow(
      expect.objectContaining({ code: 'STORE_UNAVAILABLE' }),
    );
  });

  test('the event search uses the FTS5 index, not a scan of the events', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file });
    await withWriteTransactions(store).events.append([{ ...event, data: { note: 'hello world' } }]);
    expect((await store.events.search({ query: 'hel' })).length).toBe(1);
    await store.close();
    const raw = new Database(file, { readonly: true });
    const plan = raw
      .prepare(
        `explain query plan select id from events where type = 'x' and id in
         (select rowid from events_fts where events_fts match '"hel"*') order by id desc limit 100`,
      )
      .all() as { detail: string }[];
    raw.close();
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
  });

  test('the search index is written behind the log: a search right after an append finds it, and it catches up by itself', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file });
    const raw = new Database(file, { readonly: true });
    // Events appended past the last one the index holds.
    const unindexed = () =>
      (
        raw
          .prepare('select (select max(id) from events) - (select last_id from events_fts_position) as n')
          .get() as { n: number }
      ).n;
    const indexed = (word: string) =>
      raw.prepare(`select rowid from events_fts where events_fts match '"${word}"'`).all().length;
    try {
      for (const note of ['alpha one', 'alpha two', 'beta'])
        await withWriteTransactions(store).events.append([{ ...event, data: { note } }]);
      expect(unindexed()).toBe(3);
      expect((await store.events.search({ query: 'alpha' })).map((e) => e.data)).toEqual([
        { note: 'alpha two' },
        { note: 'alpha one' },
      ]);
      expect(await store.events.count({ query: 'beta' })).toBe(1);
      expect(unindexed()).toBe(0);

      // Nobody searches: the store folds new events into the index a moment after the append.
      await withWriteTransactions(store).events.append([{ ...event, data: { note: 'gamma' } }]);
      expect(indexed('gamma')).toBe(0);
      const until = Date.now() + 5000;
      while (unindexed() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(unindexed()).toBe(0);
      expect(indexed('gamma')).toBe(1);

      // Inside a transaction, a search sees what the transaction appended.
      const found = await store.transaction(async (tx) => {
        await tx.events.append([{ ...event, data: { note: 'delta' } }]);
        return tx.events.search({ query: 'delta' });
      });
      expect(found.map((e) => e.data)).toEqual([{ note: 'delta' }]);
    } finally {
      raw.close();
      await store.close();
    }
  });
});

test('repositories of a finished transaction refuse to run outside it', async () => {
  const store = await sqliteStore({ filename: ':memory:' });
  let leaked: Parameters<Parameters<typeof store.transaction>[0]>[0] | undefined;
  await store.transaction(async (tx) => {
    leaked = tx;
  });
  await expect(leaked!.projects.insert(project('late'))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  expect(await store.projects.get('late')).toBeNull();
  await store.close();
});

describe('lists bound as one JSON parameter', () => {
  test('a lookup by a list of names still searches the index (EXPLAIN QUERY PLAN)', async () => {
    const file = freshFile();
    await (await sqliteStore({ filename: file })).close();
    const raw = new Database(file, { readonly: true });
    const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: raw }) });
    const plan = (query: { compile(): { sql: string; parameters: readonly unknown[] } }): string => {
      const { sql: text, parameters } = query.compile();
      const rows = raw.prepare(`explain query plan ${text}`).all(...parameters) as { detail: string }[];
      return rows.map((row) => row.detail).join('\n');
    };
    const names = Array.from({ length: 40_000 }, (_, i) => `feature-${i}`);
    const byName = plan(
      db
        .selectFrom('features')
        .selectAll()
        .where(sqliteDialect.inList(sql.ref('name'), names)),
    );
    expect(byName).toMatch(/SEARCH features USING (INDEX|PRIMARY KEY).*\(name=\?\)/);
    expect(byName).not.toMatch(/SCAN features/);
    const strategies = plan(
      db
        .selectFrom('feature_strategies')
        .selectAll()
        .where(sqliteDialect.inList(sql.ref('feature_strategies.feature_name'), names)),
    );
    expect(strategies).toMatch(/SEARCH feature_strategies USING INDEX/);
    await db.destroy();
  });
});
