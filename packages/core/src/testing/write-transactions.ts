import { READ_METHODS, type Repositories, type Store } from '../ports/store.js';

/** A store that also takes writes outside transactions, each in a transaction of its own: for tests. */
export type ContractStore = Store & Repositories;

const readMethods: Readonly<Record<string, readonly string[]>> = READ_METHODS;

/**
 * Tests of repositories check one call at a time: this wraps a store so that a write called on it
 * directly runs in a transaction of its own, as a one-statement command would. Stores themselves
 * refuse writes outside `transaction` (the port does not even have them).
 */
export function withWriteTransactions(store: Store): ContractStore {
  const areas = new Map<string, object>();
  const areaOf = (name: string): object => {
    let area = areas.get(name);
    if (!area) {
      const reads: object = Reflect.get(store, name);
      // A fresh target: stores may freeze their repositories, and a proxy must not change a frozen object's answers.
      area = new Proxy(
        {},
        {
          get(_target, method) {
            if (typeof method !== 'string' || readMethods[name]?.includes(method))
              return Reflect.get(reads, method);
            return (...args: unknown[]) =>
              store.transaction(async (tx) => {
                const repository: object = Reflect.get(tx, name);
                return Reflect.apply(Reflect.get(repository, method), repository, args);
              });
          },
        },
      );
      areas.set(name, area);
    }
    return area;
  };
  const wrapped: Store = new Proxy(store, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in readMethods) return areaOf(prop);
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return wrapped as ContractStore;
}
