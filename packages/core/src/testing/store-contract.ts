import type { Store } from '../ports/store.js';

/** Opens a fresh, empty, migrated store; each call is isolated from every other. */
export type StoreFactory = () => Promise<Store>;

/** Registers the contract suite for one store implementation. */
export function describeStoreContract(_name: string, _open: StoreFactory): void {
  // Filled in by the contract suite work.
}
