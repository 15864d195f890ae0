import {
  type Compilable,
  type CompiledQuery,
  type Expression,
  type InsertType,
  type Kysely,
  type OperationNode,
  type QueryResult,
  type RootOperationNode,
  ValueNode,
} from 'kysely';
import type { RepoContext, StoreCache } from './context.js';
import type { Database, JsonWrite } from './database.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Stands in a query for a value bound on each run. It is a kysely expression of type `T`, so the
 * query builder checks it against the column it is compared with or written to, and it compiles
 * to an ordinary parameter whose value is this slot, found again in the compiled parameters.
 */
class Slot<T> implements Expression<T> {
  constructor(
    readonly name: string,
    /** Bound as JSON text (`JSON.stringify`; null stays SQL NULL). */
    readonly json: boolean,
  ) {}
  get expressionType(): T | undefined {
    return undefined;
  }
  toOperationNode(): OperationNode {
    return ValueNode.create(this);
  }
}

/** How a built query refers to the values `P` of each run. */
export interface Binder<P> {
  /** A value bound as is, typed as `P[K]`. */
  value<K extends keyof P & string>(name: K): Expression<P[K]>;
  /** A JSON column value written through the dialect's JSON place; null stays SQL NULL. */
  json(name: keyof P & string): JsonWrite;
  /** A JSON column value given as its JSON text (serialized once by the caller); null stays SQL NULL. */
  jsonText<K extends keyof P & string>(name: P[K] extends string | null ? K : never): JsonWrite;
  /** One value slot per name, for `values(...)` and `set(...)`. */
  values<K extends keyof P & string>(names: readonly K[]): { [N in K]: Expression<P[N]> };
}

/** The values a prepared write binds for the columns `C` of table `T`, each as it is inserted; JSON columns `J` as plain values. */
export type RowValues<T, C extends keyof T, J extends keyof T = never> = {
  [K in Exclude<C, J>]: InsertType<T[K]>;
} & { [K in J]: unknown };

/** A built query: compiles, and (for its result type) could run on its own. */
export interface Buildable<R> extends Compilable<R> {
  execute(): Promise<R[]>;
}

type Source<P> = { kind: 'value' | 'json'; name: keyof P & string } | { kind: 'constant'; value: unknown };

interface Template<P> {
  readonly sql: string;
  readonly query: RootOperationNode;
  readonly queryId: CompiledQuery['queryId'];
  readonly sources: readonly Source<P>[];
}

/** A query that is built and compiled once per store, then only bound and run. */
export interface Prepared<P, R> {
  run(ctx: RepoContext, params: P): Promise<QueryResult<R>>;
}

function binder<P>(dialect: SqlDialect): Binder<P> {
  return {
    value: <K extends keyof P & string>(name: K) => new Slot<P[K]>(name, false),
    json: (name) => dialect.jsonText(new Slot<string | null>(name, true)),
    jsonText: (name) => dialect.jsonText(new Slot<string | null>(name, false)),
    values<K extends keyof P & string>(names: readonly K[]) {
      const slots: Partial<{ [N in K]: Expression<P[N]> }> = {};
      for (const name of names) slots[name] = new Slot<P[K]>(name, false);
      return slots as { [N in K]: Expression<P[N]> };
    },
  };
}

function compile<P, R>(
  db: Kysely<Database>,
  dialect: SqlDialect,
  build: (db: Kysely<Database>, bind: Binder<P>, dialect: SqlDialect) => Buildable<R>,
): Template<P> {
  const compiled = build(db, binder<P>(dialect), dialect).compile();
  const sources = compiled.parameters.map(
    (parameter): Source<P> =>
      parameter instanceof Slot
        ? { kind: parameter.json ? 'json' : 'value', name: parameter.name as keyof P & string }
        : { kind: 'constant', value: parameter },
  );
  return { sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, sources };
}

/**
 * Defines a hot query once: `build` runs on first use per store with slots in place of values, and
 * every later run binds the values into the compiled SQL without building or compiling again.
 * Only for queries whose shape never depends on the values (no `in` lists, no optional filters).
 * Name the values' types on the binder (`(db, p: Binder<{ id: string }>) => …`); the result type
 * comes from the query.
 */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, bind: Binder<P>, dialect: SqlDialect) => Buildable<R>,
): Prepared<P, R> {
  const templates = new WeakMap<StoreCache, Template<P>>();
  return {
    run(ctx, params) {
      let template = templates.get(ctx.cache);
      if (template === undefined) {
        template = compile(ctx.db, ctx.dialect, build);
        templates.set(ctx.cache, template);
      }
      const parameters = template.sources.map((source) => {
        if (source.kind === 'constant') return source.value;
        const value = params[source.name];
        if (source.kind === 'value') return value;
        return value === null || value === undefined ? null : JSON.stringify(value);
      });
      const query: CompiledQuery<R> = {
        sql: template.sql,
        query: template.query,
        queryId: template.queryId,
        parameters,
      };
      return ctx.db.executeQuery(query);
    },
  };
}
