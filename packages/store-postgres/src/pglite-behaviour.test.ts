import { PGlite } from '@electric-sql/pglite';
import type { NewEvent } from '@flagstaff/core';
import { withWriteTransactions } from '@flagstaff/core/testing';
import { afterAll, expect, test } from 'vitest';
import { pgliteStore } from './pglite-store.js';
import { freshSchema } from './test-support.js';

const event: NewEvent = {
  type: 'feature-created',
  createdBy: 'ann',
  createdByUserId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const shared = new PGlite();
afterAll(() => shared.close());

test('without an instance, the store loads PGlite itself and closes it', async () => {
  const store = await pgliteStore();
  await withWriteTransactions(store).events.append([{ ...event, data: { note: 'hello world' } }]);
  expect((await store.events.search({ query: 'wor' })).map((e) => e.data)).toEqual([{ note: 'hello world' }]);
  await store.close();
  await expect(store.events.latestId()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
});

test('stores sharing an instance and schema hear each other through NOTIFY', async () => {
  const schema = freshSchema();
  const listening = await pgliteStore({ pglite: shared, schema });
  const writing = await pgliteStore({ pglite: shared, schema, dropSchemaOnClose: true });
  let heard = 0;
  listening.onEventsAppended!(() => heard++);
  await new Promise((r) => setTimeout(r, 50));
  await withWriteTransactions(writing).events.append([event]);
  for (let i = 0; i < 100 && heard === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(heard).toBe(1);
  await listening.close();
  await writing.close();
});

test('stores in different schemas of one instance keep their own search_path', async () => {
  const one = await pgliteStore({ pglite: shared, schema: freshSchema(), dropSchemaOnClose: true });
  const two = await pgliteStore({ pglite: shared, schema: freshSchema(), dropSchemaOnClose: true });
  await Promise.all([
    withWriteTransactions(one).events.append([event, event]),
    withWriteTransactions(two).events.append([event]),
  ]);
  expect(await one.events.count({})).toBe(2);
  expect(await two.events.count({})).toBe(1);
  await Promise.all([one.close(), two.close()]);
});

test('very long filter values and huge payloads stay within PostgreSQL tsvector limits', async () => {
  const store = await pgliteStore({ pglite: shared, schema: freshSchema(), dropSchemaOnClose: true });
  const project = `p${'x'.repeat(3000)}`;
  const words = Array.from({ length: 60_000 }, (_, i) => `word${i}`).join(' ');
  const [appended] = await withWriteTransactions(store).events.append([
    { ...event, project, data: { note: 'needle', words, last: 'tail' } },
  ]);
  expect((await store.events.search({ project, query: 'needle' })).map((e) => e.id)).toEqual([appended!.id]);
  expect(await store.events.count({ project, query: 'word0' })).toBe(1);
  // Past 256k indexed characters the rest of a payload is not searchable (PostgreSQL caps a tsvector at 1 MB).
  expect(await store.events.count({ project, query: 'tail' })).toBe(0);
  await store.close();
});

test('an unparsable created-time bound matches nothing rather than failing', async () => {
  const store = await pgliteStore({ pglite: shared, schema: freshSchema(), dropSchemaOnClose: true });
  await withWriteTransactions(store).events.append([event]);
  expect(await store.events.search({ createdAfter: 'yesterday' })).toEqual([]);
  expect(await store.events.count({ createdBefore: 'soon' })).toBe(0);
  await store.close();
});
