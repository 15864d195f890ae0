import type { Key } from './database.js';

/** The synchronous twin of a repository port: memory repositories compute answers in one step. */
export type Sync<R> = {
  [M in keyof R]: R[M] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : never;
};

/** A composite key; NUL cannot occur in names, so parts never run into each other. */
export const keyOf = (...parts: readonly Key[]): string => parts.join('\u0000');

/** Orders strings by code point (the SQL stores' `C`/BINARY collation), numbers numerically. */
export function compare(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Orders RFC 3339 timestamps by instant, falling back to the text for equal instants. */
export function compareTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b) || compare(a, b);
}

/** Orders by the first comparison that tells the two apart. */
export function by<T>(...comparators: readonly ((a: T, b: T) => number)[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const comparator of comparators) {
      const result = comparator(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

/** Sorts a copy of the rows. */
export const sorted = <T>(rows: readonly T[], comparator: (a: T, b: T) => number): T[] =>
  [...rows].sort(comparator);
