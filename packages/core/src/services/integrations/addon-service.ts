import type { Caller } from '../../auth/caller.js';
import type { AddonInput, AddonProviderDefinition, AddonView, CreatedAddon } from '../../domain/addon.js';
import type { IntegrationEvent, QueuedDeliveryView } from '../../domain/addon-delivery.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { addonDeliveries, addonDeliveryLog, replayAddonDeliveries } from './addon-delivery-views.js';
import {
  addonProviders,
  createAddon,
  deleteAddon,
  getAddon,
  listAddons,
  rotateAddonSigningSecret,
  updateAddon,
} from './addon-operations.js';
import { hasClearSecrets, sealParameters } from './addon-parameters.js';
import type { AddonRuntime } from './addon-runtime.js';

export { MASKED_VALUE } from './addon-parameters.js';
export type { AddonServiceOptions } from './addon-runtime.js';

/**
 * Addons for in-process callers: typed wrappers over the operations in `addon-operations.ts` and
 * `addon-delivery-views.ts` (which HTTP serves too), plus the delivery's lifecycle.
 */
export function createAddonService(deps: ServiceDeps, run: OperationRunner, runtime: AddonRuntime) {
  const { store } = deps;
  return {
    /** Provider definitions: their parameters and the events they can forward. */
    providers: addonProviders,
    /** Every addon (sensitive parameters masked) and the providers; Admins only. */
    list: (caller: Caller): Promise<{ addons: AddonView[]; providers: AddonProviderDefinition[] }> =>
      run(listAddons, caller, {}),
    /** One addon with its delivery state, or NOT_FOUND; Admins only. */
    get: (caller: Caller, id: number): Promise<AddonView> => run(getAddon, caller, { id }),
    /** Creates an addon; a webhook's signing secret is answered this once. */
    create: (caller: Caller, input: AddonInput): Promise<CreatedAddon> => run(createAddon, caller, input),
    /** Replaces an addon's configuration; masked or missing secrets keep their stored value. */
    update: (caller: Caller, id: number, input: AddonInput): Promise<AddonView> =>
      run(updateAddon, caller, { ...input, id }),
    /** Replaces a webhook's signing secret; the previous one keeps signing for the overlap. */
    rotateSigningSecret: (
      caller: Caller,
      id: number,
    ): Promise<{ signingSecret: string; previousValidUntil: string }> =>
      run(rotateAddonSigningSecret, caller, { id }),
    /** The delivery log of an addon, newest attempt first. */
    deliveryLog: (
      caller: Caller,
      id: number,
      query: { limit?: number; offset?: number } = {},
    ): Promise<{ integrationEvents: IntegrationEvent[] }> => run(addonDeliveryLog, caller, { ...query, id }),
    /** An addon's queue: pending (the head first) or parked. */
    deliveries: (
      caller: Caller,
      id: number,
      query: { state?: 'pending' | 'parked'; limit?: number } = {},
    ): Promise<{ deliveries: QueuedDeliveryView[] }> => run(addonDeliveries, caller, { ...query, id }),
    /** Replays parked deliveries: one event, or all (`eventId` null). */
    replay: (caller: Caller, id: number, eventId: number | null): Promise<{ replayed: number }> =>
      run(replayAddonDeliveries, caller, { id, eventId }),
    /** Deletes an addon; NOT_FOUND when unknown. */
    async delete(caller: Caller, id: number): Promise<void> {
      await run(deleteAddon, caller, { id });
    },

    /**
     * Seals sensitive parameters still stored in clear (rows written before they were sealed, or
     * before a server key was set); createFlagstaff runs it at start. Answers how many addons.
     */
    async sealStoredSecrets(): Promise<number> {
      const { box } = runtime;
      if (!box) return 0;
      if (!(await store.addons.list()).some(hasClearSecrets)) return 0;
      return store.transaction(async (tx) => {
        let sealed = 0;
        for (const addon of await tx.addons.list())
          if (hasClearSecrets(addon)) {
            await tx.addons.update({
              ...addon,
              parameters: sealParameters(addon.provider, addon.parameters, box),
            });
            sealed++;
          }
        return sealed;
      });
    },

    /** Delivers every event appended so far to the matching addons; resolves when done (tests await it). */
    deliverPending: (): Promise<void> => runtime.delivery.deliverPending(),

    /** Stops background delivery (flagstaff.close calls it). */
    async stop(): Promise<void> {
      await runtime.delivery.stop();
      if (runtime.closeHttp) runtime.http.close?.();
    },
  };
}

export type AddonService = ReturnType<typeof createAddonService>;
