import { conflict, isFlagstaffError } from '@flagstaff/core';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database, JsonWrite } from './database.js';
import type { SqlDialect } from './sql-dialect.js';

/** What every repository works over: one handle (the store's, or a transaction's) and the dialect. */
export interface RepoContext {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  /**
   * True inside `Store.transaction` on a dialect where a failed statement aborts the transaction:
   * statements that may raise CONFLICT then run in a savepoint, so a caught CONFLICT leaves the
   * transaction usable, as on the memory store.
   */
  readonly recoverableConflicts: boolean;
  /** Records that events of these types were appended, so listeners hear of it once the transaction commits. */
  readonly eventsAppended: (types: readonly string[]) => void;
  /** Runs `fn` once the transaction commits (never after a rollback); outside one, at once. */
  readonly afterCommit: (fn: () => void) => void;
  /** Caches shared by every handle of the store; they only ever hold committed facts. */
  readonly cache: StoreCache;
}

/**
 * Store-wide caches of rows that never change once committed. The object also keys what else
 * belongs to one store (the compiled SQL of each prepared query).
 */
export interface StoreCache {
  /** `event_creators` ids by name (rows are never updated or deleted). */
  readonly creatorIds: Map<string, number>;
}

/** A fresh, empty cache for one store. */
export const createStoreCache = (): StoreCache => ({ creatorIds: new Map() });

/**
 * Runs a statement that may violate a unique constraint, turning the violation into CONFLICT with
 * `message`. The driver guard already maps the error code to CONFLICT; this only adds the wording.
 */
export async function uniqueOr<T>(
  ctx: RepoContext,
  message: string,
  run: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const useSavepoint = ctx.recoverableConflicts;
  // One name is enough: these savepoints never nest, and a name is local to its transaction.
  const name = sql.id('flagstaff_unique');
  try {
    if (useSavepoint) await sql`savepoint ${name}`.execute(ctx.db);
    const result = await run(ctx.db);
    if (useSavepoint) await sql`release savepoint ${name}`.execute(ctx.db);
    return result;
  } catch (error) {
    if (useSavepoint && isFlagstaffError(error, 'CONFLICT'))
      await sql`rollback to savepoint ${name}`.execute(ctx.db);
    if (isFlagstaffError(error, 'CONFLICT')) throw conflict(message);
    throw error;
  }
}

/**
 * For an `insert … on conflict do nothing`: CONFLICT with `message` when no row went in. Unlike
 * `uniqueOr`, the statement never fails, so no savepoint (two round trips on PostgreSQL) is needed
 * to keep the transaction usable.
 */
export function insertedOr(result: { numAffectedRows?: bigint }, message: string): void {
  if ((result.numAffectedRows ?? 0n) === 0n) throw conflict(message);
}

/** Reads a boolean column (SQLite 0/1, PostgreSQL true/false). */
export const bool = (value: number | boolean): boolean => Boolean(value);

/** Reads an integer that PostgreSQL may return as text (int8, counts). */
export const int = (value: number | string | bigint | null | undefined): number => Number(value ?? 0);

/** Shorthands over the dialect's JSON place. */
export const jsonOf =
  (ctx: RepoContext) =>
  (value: unknown): JsonWrite =>
    ctx.dialect.json(value);

export const parseOf =
  (ctx: RepoContext) =>
  <T>(raw: unknown): T =>
    ctx.dialect.parseJson(raw) as T;

/** Whether an update or delete touched a row. */
export const touched = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): boolean =>
  (result.numUpdatedRows ?? result.numDeletedRows ?? 0n) > 0n;

/** Splits a list into pieces of at most `size`. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * `column IN (values)` binding the whole list as one parameter, whatever its length (SQLite allows
 * 32,766 parameters per statement, PostgreSQL 65,535): every lookup by a list of names or ids goes
 * through here rather than `where(column, 'in', list)`, which binds one parameter per item.
 */
export const inList = (
  ctx: RepoContext,
  column: string,
  values: readonly string[] | readonly number[],
): RawBuilder<SqlBool> =>
  // An empty list matches nothing, whatever the column's type (PostgreSQL must not guess the array's).
  values.length === 0 ? sql<SqlBool>`1 = 0` : ctx.dialect.inList(sql.ref(column), values);

/** Parameters one statement may bind: under SQLite's 32,766 and PostgreSQL's 65,535, with room to spare. */
export const PARAMETERS_PER_STATEMENT = 30_000;

/**
 * Rows of a multi-row insert, split so that no statement binds more than PARAMETERS_PER_STATEMENT
 * (`parametersPerRow`: the values each row binds). Run the pieces in the caller's transaction.
 */
export function rowBatches<T>(rows: readonly T[], parametersPerRow: number): T[][] {
  return chunks(rows, Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / parametersPerRow)));
}
