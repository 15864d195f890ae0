import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@flagstaff/core';
import { describeSharedAddonDelivery, project } from '@flagstaff/core/testing';
import { postgresStore } from '@flagstaff/store-postgres';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from './config.js';
import { openStore } from './store.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Two server processes on one SQLite file: each webhook goes out once.
describeSharedAddonDelivery('sqlite file opened twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-store-'));
  dirs.push(dir);
  const { database } = loadConfig({ DATABASE_URL: join(dir, 'flagstaff.db') });
  const first = await openStore(database, silentLogger);
  const second = await openStore(database, silentLogger);
  return [first, second] as const;
});

const pgUrl = process.env.FLAGSTAFF_TEST_PG_URL;

describe.skipIf(pgUrl === undefined)('PostgreSQL from DATABASE_URL', () => {
  test('FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS reaches the store: a blocked statement fails naming the timeout', async () => {
    // A store of its own creates the schema (and drops it at the end) and holds a row lock.
    const schema = `flagstaff_test_${randomBytes(8).toString('hex')}`;
    const owner = await postgresStore({ connectionString: pgUrl!, schema, dropSchemaOnClose: true });
    const url = new URL(pgUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const { database } = loadConfig({
      DATABASE_URL: url.toString(),
      FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: '300',
    });
    const store = await openStore(database, silentLogger);
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = (): void => {};
    const locked = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const holding = owner.transaction(async (tx) => {
      await tx.projects.insert(project('alpha'));
      inserted();
      await held;
    });
    try {
      await locked;
      // Inserting the same key waits for the other transaction, until the timeout cancels it.
      await expect(store.transaction((tx) => tx.projects.insert(project('alpha')))).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
        message: expect.stringContaining('statement timeout is 300 ms'),
      });
    } finally {
      release();
      await holding;
    }
    expect((await store.projects.list()).map((p) => p.id)).toEqual(['alpha']);
    await store.close();
    await owner.close();
  });
});
