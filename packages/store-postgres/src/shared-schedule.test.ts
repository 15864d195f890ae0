import { PGlite } from '@electric-sql/pglite';
import { describeSharedChangeRequestSchedule } from '@flagstaff/core/testing';
import { afterAll, describe } from 'vitest';
import { pgliteStore } from './pglite-store.js';
import { postgresStore } from './postgres-store.js';
import { freshSchema, pgUrl } from './test-support.js';

// Two stores on one schema stand for two server processes on one database.
const shared = new PGlite();
afterAll(() => shared.close());

describeSharedChangeRequestSchedule('pglite', async () => {
  const schema = freshSchema();
  const first = await pgliteStore({ pglite: shared, schema, dropSchemaOnClose: true });
  const second = await pgliteStore({ pglite: shared, schema });
  return [first, second] as const;
});

describe.skipIf(pgUrl === undefined)('PostgreSQL server', () => {
  describeSharedChangeRequestSchedule('postgres', async () => {
    const schema = freshSchema();
    const first = await postgresStore({ connectionString: pgUrl!, schema, dropSchemaOnClose: true });
    const second = await postgresStore({ connectionString: pgUrl!, schema });
    return [first, second] as const;
  });
});
