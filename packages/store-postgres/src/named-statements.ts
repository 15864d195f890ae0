import type pg from 'pg';

/** At most this many distinct statements get a name (each connection prepares those it runs). */
const MAX_NAMED = 500;

/** Statement names by SQL text, process-wide: a name always stands for the same text. */
const names = new Map<string, string>();

function nameOf(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `flagstaff_${names.size}`;
    names.set(sql, name);
  }
  return name;
}

const patched = new WeakSet<object>();

/**
 * Runs the client's parameterized statements as named prepared statements: PostgreSQL parses and
 * plans each text once per connection instead of on every execution, and pg skips sending it
 * again. Statements without parameters (`begin; …` and other multi-statement texts among them) go
 * unnamed, as before. The store's queries come from a fixed set of shapes, so the names stay few.
 */
export function withNamedStatements<C extends pg.PoolClient>(client: C): C {
  if (patched.has(client)) return client;
  patched.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const name = nameOf(text);
      if (name !== undefined) return query({ name, text, values });
    }
    return callback === undefined ? query(text, values) : query(text, values, callback);
  };
  return client;
}
