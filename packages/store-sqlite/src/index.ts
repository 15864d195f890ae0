export type { SqliteStoreOptions } from './sqlite-store.js';
export { sqliteStore } from './sqlite-store.js';
