import { describeStoreContract } from '@flagstaff/core/testing';
import { describe } from 'vitest';
import { postgresStore } from './postgres-store.js';
import { freshSchema, pgUrl } from './test-support.js';

describe.skipIf(pgUrl === undefined)('PostgreSQL server', () => {
  describeStoreContract('postgres', () =>
    postgresStore({ connectionString: pgUrl!, schema: freshSchema(), dropSchemaOnClose: true }),
  );
});
