export type { RepoContext } from './context.js';
export type { ListenForEvents, OpenSqlStoreOptions, SqlStoreOptions } from './create-sql-store.js';
export { createSqlStore, openSqlStore } from './create-sql-store.js';
export type { Database, Json, JsonValue, JsonWrite } from './database.js';
export type { StoreGuard } from './guarded-dialect.js';
export { guardDialect, mapDriverError, storeUnavailable } from './guarded-dialect.js';
export type { MigrateOptions } from './migrations/index.js';
export { createMigrations, migrateToLatest } from './migrations/index.js';
export { createRepositories } from './repositories/index.js';
export type { TermQuery, TextQuery } from './search-terms.js';
export {
  eventTerms,
  filterTerms,
  MIN_PREFIX_LENGTH,
  parseTextQuery,
  payloadWords,
  wordsOf,
} from './search-terms.js';
export type { ErrorKind, EventSearchIndex, SearchWindow, SqlDialect } from './sql-dialect.js';
