export type { MemoryStoreOptions } from './memory-store.js';
export { createMemoryStore } from './memory-store.js';
