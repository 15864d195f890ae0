import type { NewEvent, Store } from '@flagstaff/core';
import { project } from '@flagstaff/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { postgresStore } from './postgres-store.js';
import { freshSchema, pgUrl } from './test-support.js';

const event = (note: string): NewEvent => ({
  type: 'feature-created',
  createdBy: 'ann',
  createdByUserId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { note },
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(pgUrl === undefined)('PostgreSQL server: concurrent transactions', () => {
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  const schemas: string[] = [];
  const openPair = async (): Promise<[Store, Store]> => {
    const name = freshSchema();
    schemas.push(name);
    const one = await postgresStore({ connectionString: pgUrl!, schema: name });
    const two = await postgresStore({ connectionString: pgUrl!, schema: name });
    return [one, two];
  };
  afterAll(async () => {
    for (const name of schemas) await admin.query(`drop schema if exists "${name}" cascade`);
    await admin.end();
  });

  test('independent transactions run at the same time: one commits while another is open', async () => {
    const [one, two] = await openPair();
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = (): void => {};
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const first = one.transaction(async (tx) => {
      await tx.projects.insert(project('alpha'));
      opened();
      await held;
    });
    await isOpen;
    // With one store-wide lock this would wait for `first`, which waits for it: the test would hang.
    await two.transaction((tx) => tx.projects.insert(project('beta')));
    expect(await one.projects.get('beta')).not.toBeNull();
    expect(await two.projects.get('alpha')).toBeNull();
    release();
    await first;
    expect(await two.projects.get('alpha')).not.toBeNull();
    await Promise.all([one.close(), two.close()]);
  });

  test('event ids follow commit order: a reader following the log by id misses no event', async () => {
    const [one, two] = await openPair();
    const stores = [one, two];
    const writers = 16;
    const perWriter = 6;
    let writing = true;
    const seen: number[] = [];
    // A follower as the SDK streams and addon delivery are: read what is past the cursor, move on.
    const follow = (async () => {
      let cursor = 0;
      while (writing || cursor < (await one.events.latestId())) {
        const batch = await two.events.search({ afterId: cursor, ascending: true });
        for (const e of batch) seen.push(e.id);
        cursor = batch.at(-1)?.id ?? cursor;
        await pause(1);
      }
    })();
    const appended: number[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const ids = await stores[w % 2]!.transaction(async (tx) => {
            // Work before and after the append, so transactions overlap at every point.
            await tx.projects.insert(project(`p-${w}-${i}`));
            await pause((w * 7 + i * 3) % 5);
            const events = await tx.events.append([event(`${w}-${i}`), event(`${w}-${i}b`)]);
            await pause((w * 3 + i * 5) % 4);
            return events.map((e) => e.id);
          });
          appended.push(...ids);
        }
      }),
    );
    writing = false;
    await follow;
    expect(appended).toHaveLength(writers * perWriter * 2);
    // Every id the writers got was seen by the follower, each once, in increasing order.
    expect(seen).toEqual([...appended].sort((a, b) => a - b));
    await Promise.all([one.close(), two.close()]);
  });

  test('a transaction that loses a race runs again: concurrent increments across stores all count', async () => {
    const [one, two] = await openPair();
    await one.transaction((tx) => tx.projects.insert(project('alpha', { featureLimit: 0 })));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? one : two).transaction(async (tx) => {
          const current = await tx.projects.get('alpha');
          await pause(1);
          await tx.projects.update({ ...current!, featureLimit: (current!.featureLimit ?? 0) + 1 });
          await tx.events.append([event(`increment ${i}`)]);
        }),
      ),
    );
    expect((await one.projects.get('alpha'))?.featureLimit).toBe(12);
    expect(await two.events.count({})).toBe(12);
    await Promise.all([one.close(), two.close()]);
  });
});
