// The generator moved to @flagstaff/core so the HTTP suite's SDK tests seed the same kind of set.
export { createRandom, generateContexts, generateFlagSet } from '@flagstaff/core/testing/flag-set';
