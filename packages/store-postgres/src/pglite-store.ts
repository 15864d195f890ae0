import { randomUUID } from 'node:crypto';
import { type Logger, type Store, silentLogger } from '@flagstaff/core';
import { openSqlStore } from '@flagstaff/store-sql';
import { sql } from 'kysely';
import { type PGliteLike, pgliteDialect, withInstance } from './pglite-driver.js';
import { EVENTS_CHANNEL, isForeignNotice, postgresDialect } from './postgres-dialect.js';

export interface PgliteStoreOptions {
  /** An instance to use (several stores may share one, each in its own schema); the store never closes it. */
  pglite?: PGliteLike;
  /** Where a store-created instance keeps its files; in memory when omitted. */
  dataDir?: string;
  /** The schema for the tables, created when missing; the instance's default otherwise. */
  schema?: string;
  /** Tests: drop the whole schema when the store closes. */
  dropSchemaOnClose?: boolean;
  /** Where failing `onEventsAppended` listeners are reported. */
  logger?: Logger;
}

/**
 * A Flagstaff store on PGlite, PostgreSQL compiled to WebAssembly: the PostgreSQL store's queries
 * and migrations with no server. `@electric-sql/pglite` is an optional peer dependency, loaded
 * only when the store creates the instance itself.
 */
export async function pgliteStore(options: PgliteStoreOptions = {}): Promise<Store> {
  let pglite = options.pglite;
  const owned = pglite === undefined;
  if (pglite === undefined) {
    const { PGlite } = await import('@electric-sql/pglite');
    const created = new PGlite(options.dataDir);
    await created.waitReady;
    pglite = created;
  }
  const instance = pglite;
  const { schema } = options;
  const instanceId = randomUUID();
  return openSqlStore({
    name: `pglite${schema === undefined ? '' : `:${schema}`}`,
    dialect: postgresDialect({ schema: schema ?? '' }),
    kyselyDialect: pgliteDialect(instance, schema, instanceId),
    schema,
    logger: options.logger ?? silentLogger,
    async listen(onNotice, tablesSchema = '') {
      // LISTEN goes through the instance's turn so it never lands inside another store's transaction.
      const unlisten = await withInstance(instance, () =>
        instance.listen(EVENTS_CHANNEL, (payload) => {
          if (isForeignNotice(payload, tablesSchema, instanceId)) onNotice();
        }),
      );
      return () => withInstance(instance, () => unlisten());
    },
    beforeDestroy:
      options.dropSchemaOnClose && schema !== undefined
        ? async (db) => {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
          }
        : undefined,
    afterClose: owned ? () => instance.close() : undefined,
  });
}
