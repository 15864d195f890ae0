import { createSecretBox, type SecretBox } from '../../auth/secret-box.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import type { ServiceDeps } from '../deps.js';
import { type AddonDeliveryOptions, createAddonDelivery } from './addon-delivery.js';
import { createSecretCodec, DEFAULT_ROTATION_OVERLAP_MS, type SecretCodec } from './addon-signing.js';
import { createOutboundPolicy, type OutboundPolicy } from './outbound-policy.js';

export interface AddonServiceOptions extends AddonDeliveryOptions {
  /** The server key signing secrets are sealed with at rest (without it they are stored as they are). */
  secretKey?: string | undefined;
  /** How long a rotated-out signing secret keeps signing beside the new one (default 24 hours). */
  rotationOverlapMs?: number;
  /** Where addons may send requests (default: public addresses only). */
  outbound?: OutboundPolicy;
  /** Whether stopping closes `http` (the default client is Flagstaff's own). */
  closeHttp?: boolean;
}

/**
 * What the addon operations use beyond the store: the sealing box and codec, the outbound policy
 * and HTTP client that check destinations, and the delivery that must hear of changes once they commit.
 */
export function createAddonRuntime(
  deps: ServiceDeps & { http: HttpClient },
  options: AddonServiceOptions = {},
) {
  const box: SecretBox | null = options.secretKey ? createSecretBox(options.secretKey) : null;
  const codec: SecretCodec = createSecretCodec(box);
  const outbound = options.outbound ?? createOutboundPolicy();
  const delivery = createAddonDelivery(deps, { ...options, outbound }, codec, box);
  const replayed = new Set<number>();
  let changed = false;
  return {
    box,
    codec,
    outbound,
    http: deps.http,
    delivery,
    rotationOverlapMs: options.rotationOverlapMs ?? DEFAULT_ROTATION_OVERLAP_MS,
    closeHttp: options.closeHttp ?? false,
    /** Addons changed in a write under way: delivery hears of it once the write ends. */
    noteChanged(): void {
      changed = true;
    },
    /** Parked deliveries of an addon were replayed in a write under way. */
    noteReplayed(addonId: number): void {
      replayed.add(addonId);
    },
    /** After a write ends (an operation's `settled`): wakes delivery for what it changed. */
    settle(): void {
      if (changed) delivery.addonsChanged();
      changed = false;
      for (const id of replayed) delivery.replayed(id);
      replayed.clear();
    },
  };
}

export type AddonRuntime = ReturnType<typeof createAddonRuntime>;
