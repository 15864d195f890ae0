import type { CreateTableBuilder, Kysely } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';

/** The DDL vocabulary of the migrations, resolved for one dialect. */
export interface Ddl {
  readonly db: Kysely<unknown>;
  /** Text ordered by code point. */
  readonly text: SqlDialect['types']['text'];
  readonly json: SqlDialect['types']['json'];
  /** Adds a store-assigned `id` primary key that never reuses a value. */
  withId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
}

export function ddlFor(db: Kysely<unknown>, dialect: SqlDialect): Ddl {
  return {
    db,
    text: dialect.types.text,
    json: dialect.types.json,
    withId: (table) =>
      dialect.types.serialId === 'integer'
        ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        : table.addColumn('id', 'serial', (c) => c.primaryKey()),
  };
}
