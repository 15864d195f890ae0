/** Memoises a parse of context values (versions, addresses) across the flags of one compiled set. */
export interface ParseCache<T> {
  /** Safe to pass around unbound. */
  readonly get: (raw: string) => T;
}

/**
 * A context is usually evaluated against many flags that read the same field, so parsing its value
 * once per compiled set saves the parse on every later constraint. Bounded by clearing when full: a
 * flood of distinct values costs a re-parse, never unbounded memory.
 */
export function createParseCache<T>(parse: (raw: string) => T, limit = 1024): ParseCache<T> {
  const entries = new Map<string, T>();
  return {
    get: (raw) => {
      const hit = entries.get(raw);
      if (hit !== undefined || entries.has(raw)) return hit as T;
      if (entries.size >= limit) entries.clear();
      const parsed = parse(raw);
      entries.set(raw, parsed);
      return parsed;
    },
  };
}
