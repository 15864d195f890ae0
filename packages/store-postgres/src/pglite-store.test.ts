import { PGlite } from '@electric-sql/pglite';
import { describeStoreContract } from '@flagstaff/core/testing';
import { afterAll } from 'vitest';
import { pgliteStore } from './pglite-store.js';
import { freshSchema } from './test-support.js';

// One instance for the file (starting PGlite takes a second); each store gets its own schema in it.
const shared = new PGlite();
afterAll(() => shared.close());

describeStoreContract('pglite', () =>
  pgliteStore({ pglite: shared, schema: freshSchema(), dropSchemaOnClose: true }),
);
