import type { Repositories, Store } from '../ports/store.js';
import { READ_METHODS } from '../ports/store.js';

/**
 * A store whose transactions join `tx`: services built over it run their commands, with their own
 * events and policy checks, inside one outer transaction (an import, a clone: all or nothing).
 */
export function joined(store: Store, tx: Repositories): Store {
  // Repositories may be getters (transaction-bound proxies): copy each area by name.
  const areas: Partial<Repositories> = {};
  for (const area of Object.keys(READ_METHODS) as (keyof Repositories)[]) copyArea(areas, tx, area);
  return { ...(areas as Repositories), name: store.name, transaction: (fn) => fn(tx), close: async () => {} };
}

function copyArea<K extends keyof Repositories>(
  to: Partial<Repositories>,
  from: Repositories,
  area: K,
): void {
  to[area] = from[area];
}
