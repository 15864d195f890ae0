import { describe } from 'vitest';
import { describeAccessContract } from './access-contract.js';
import { describeAddonDeliveryContract } from './addon-delivery-contract.js';
import { describeAddonQueueContract } from './addon-queue-contract.js';
import { describeCascadeContract } from './cascade-contract.js';
import { describeChangeRequestContract } from './change-request-contract.js';
import { describeCommandReadContract } from './command-read-contract.js';
import { describeEventContract } from './event-contract.js';
import { describeEventSearchContract } from './event-search-contract.js';
import { describeFeatureContract } from './feature-contract.js';
import { describeFeatureSearchContract } from './feature-search-contract.js';
import type { StoreFactory } from './fixtures.js';
import { describeIntegrationContract } from './integration-contract.js';
import { describeMetricsContract } from './metrics-contract.js';
import { describeProjectContract } from './project-contract.js';
import { describeScaleContract } from './scale-contract.js';
import { describeSessionContract } from './session-contract.js';
import { describeSettingsContract } from './settings-contract.js';
import { describeStrategyContract } from './strategy-contract.js';
import { describeTagContract } from './tag-contract.js';
import { describeTokenContract } from './token-contract.js';
import { describeTransactionContract } from './transaction-contract.js';

export type { StoreFactory };

/**
 * Registers the contract suite for one store implementation: every port method, through the public
 * `Store` interface only. Each test opens its own store with `open` and closes it afterwards.
 *
 * Conventions every store must meet: timestamps come back exactly as written in canonical
 * `Date#toISOString` form; JSON fields come back deep-equal (key order aside); errors are
 * `FlagstaffError`s compared by `name` and `code`, with a message naming the thing in question.
 */
export function describeStoreContract(name: string, open: StoreFactory): void {
  describe(`${name} store contract`, () => {
    describeProjectContract(open);
    describeFeatureContract(open);
    describeStrategyContract(open);
    describeTagContract(open);
    describeCommandReadContract(open);
    describeAccessContract(open);
    describeTokenContract(open);
    describeIntegrationContract(open);
    describeMetricsContract(open);
    describeAddonDeliveryContract(open);
    describeAddonQueueContract(open);
    describeSettingsContract(open);
    describeChangeRequestContract(open);
    describeEventContract(open);
    describeEventSearchContract(open);
    describeTransactionContract(open);
    describeCascadeContract(open);
    describeSessionContract(open);
    describeFeatureSearchContract(open);
    describeScaleContract(open);
  });
}
