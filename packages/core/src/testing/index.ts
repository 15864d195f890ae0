// The store contract suite: `describeStoreContract(name, open)` registers vitest suites that every
// Store implementation must pass unchanged. `open` returns a fresh, empty, migrated store each call
// (its own database or schema), and `close` disposes of it.

export {
  createUserCaller,
  describeSharedChangeRequestSchedule,
  scheduleToggle,
} from './change-request-schedule.js';
/** A valid project row (open mode, no limits), for tests of stores and services. */
export { project } from './fixtures.js';
export type { SharedStoreFactory } from './shared-delivery-contract.js';
export { describeSharedAddonDelivery } from './shared-delivery-contract.js';
export type { StoreFactory } from './store-contract.js';
export { describeStoreContract } from './store-contract.js';
export { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';
export { type ContractStore, withWriteTransactions } from './write-transactions.js';
