import type { Compilable, CompiledQuery, Kysely, QueryResult, RootOperationNode } from 'kysely';
import type { RepoContext } from './context.js';
import type { Database, JsonWrite } from './database.js';
import type { SqlDialect } from './sql-dialect.js';

/** Stands for a value bound on each run; kysely keeps it as an ordinary parameter. */
class Slot {
  constructor(readonly name: string) {}
}

/** JSON slots go through `SqlDialect.json`, which binds `JSON.stringify` of this marker. */
const JSON_MARK = '\u0000flagstaff-json-slot:';
const TEXT_MARK = '\u0000flagstaff-text-slot:';

/** How a built query refers to the values of each run. */
export interface Binder<P> {
  /** A value bound as is. */
  value(name: keyof P & string): never;
  /** A JSON column value written through the dialect's JSON place; null stays SQL NULL. */
  json(name: keyof P & string): JsonWrite;
  /** A text value for helpers that only take strings (e.g. the dialect's search columns). */
  text(name: keyof P & string): string;
  /** One value slot per name, for `values(...)` and `set(...)`. */
  values<K extends keyof P & string>(names: readonly K[]): Record<K, never>;
}

type Source = { kind: 'value' | 'json'; name: string } | { kind: 'constant'; value: unknown };

interface Template {
  readonly sql: string;
  readonly query: RootOperationNode;
  readonly queryId: CompiledQuery['queryId'];
  readonly sources: readonly Source[];
}

/** A query that is built and compiled once per store, then only bound and run. */
export interface Prepared<P, R> {
  run(ctx: RepoContext, params: P): Promise<QueryResult<R>>;
}

function compile<P>(
  db: Kysely<Database>,
  dialect: SqlDialect,
  build: (db: Kysely<Database>, bind: Binder<P>, dialect: SqlDialect) => Compilable<unknown>,
): Template {
  const jsonSlots = new Map<string, string>();
  const textSlots = new Map<string, string>();
  const bind: Binder<P> = {
    value: (name) => new Slot(name) as never,
    text: (name) => {
      textSlots.set(`${TEXT_MARK}${name}`, name);
      return `${TEXT_MARK}${name}`;
    },
    values: (names) => Object.fromEntries(names.map((name) => [name, new Slot(name)])) as never,
    json: (name) => {
      jsonSlots.set(JSON.stringify(`${JSON_MARK}${name}`), name);
      return dialect.json(`${JSON_MARK}${name}`);
    },
  };
  const compiled = build(db, bind, dialect).compile();
  const sources = compiled.parameters.map((parameter): Source => {
    if (parameter instanceof Slot) return { kind: 'value', name: parameter.name };
    const jsonName = typeof parameter === 'string' ? jsonSlots.get(parameter) : undefined;
    if (jsonName !== undefined) return { kind: 'json', name: jsonName };
    const textName = typeof parameter === 'string' ? textSlots.get(parameter) : undefined;
    if (textName !== undefined) return { kind: 'value', name: textName };
    return { kind: 'constant', value: parameter };
  });
  const jsonBound = new Set(sources.flatMap((s) => (s.kind === 'json' ? [s.name] : [])));
  if (jsonBound.size !== jsonSlots.size)
    throw new Error('A prepared query lost a JSON slot; the dialect must bind JSON as one parameter.');
  return { sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, sources };
}

/**
 * Defines a hot query once: `build` runs on first use per store with slots in place of values, and
 * every later run binds the values into the compiled SQL without building or compiling again.
 * Only for queries whose shape never depends on the values (no `in` lists, no optional filters).
 */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, bind: Binder<P>, dialect: SqlDialect) => Compilable<R>,
): Prepared<P, R> {
  const key = {};
  return {
    run(ctx, params) {
      const templates = ctx.cache.prepared;
      let template = templates.get(key) as Template | undefined;
      if (template === undefined) {
        template = compile(ctx.db, ctx.dialect, build);
        templates.set(key, template);
      }
      const values = params as Record<string, unknown>;
      const parameters = template.sources.map((source) => {
        if (source.kind === 'constant') return source.value;
        const value = values[source.name];
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
