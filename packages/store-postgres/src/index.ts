export type { PGliteLike } from './pglite-driver.js';
export type { PgliteStoreOptions } from './pglite-store.js';
export { pgliteStore } from './pglite-store.js';
export type { PostgresStoreOptions } from './postgres-store.js';
export { postgresStore } from './postgres-store.js';
