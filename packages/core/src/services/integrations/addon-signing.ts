import { createHmac } from 'node:crypto';
import type { SecretBox } from '../../auth/secret-box.js';
import type { AddonSigningSecrets } from '../../domain/addon-delivery.js';
import type { IdGenerator } from '../../ports/runtime-ports.js';

/** The prefix of webhook signing secrets (what users paste into their receiver's configuration). */
export const SIGNING_SECRET_PREFIX = 'whsec_';

/** How long the previous secret keeps signing after a rotation, by default (24 hours). */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A fresh signing secret: 32 random bytes. */
export const newSigningSecret = (ids: IdGenerator): string => `${SIGNING_SECRET_PREFIX}${ids.randomHex(32)}`;

/**
 * Stores secrets sealed under the server key when there is one; without it they are kept as they
 * are (a webhook secret must be readable by the server to sign with it).
 */
export function createSecretCodec(box: SecretBox | null) {
  return {
    seal: (secret: string): string => (box ? box.seal(secret) : secret),
    /** The plain secret; null when it was sealed under another key. */
    open(stored: string): string | null {
      if (stored.startsWith(SIGNING_SECRET_PREFIX)) return stored;
      return box ? box.open(stored) : null;
    },
  };
}
export type SecretCodec = ReturnType<typeof createSecretCodec>;

/** `v1=` signature: HMAC-SHA256 of `<timestamp>.<body>` under the secret, hex. */
export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');

/**
 * The headers that let a receiver trust and de-duplicate a delivery, in the style of Stripe's
 * signed webhooks: `Flagstaff-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` (one `v1` per
 * signing secret; two while a rotation overlaps) and an `Idempotency-Key` stable per (addon, event).
 */
export function deliveryHeaders(input: {
  addonId: number;
  eventId: number;
  eventType: string;
  attempt: number;
  body: string;
  /** Epoch ms. */
  now: number;
  /** Plain secrets to sign with, newest first; none for unsigned providers. */
  secrets: readonly string[];
}): Record<string, string> {
  const headers: Record<string, string> = {
    'Idempotency-Key': `flagstaff-${input.addonId}-${input.eventId}`,
    'Flagstaff-Event-Id': String(input.eventId),
    'Flagstaff-Event-Type': input.eventType,
    'Flagstaff-Delivery-Attempt': String(input.attempt),
  };
  if (input.secrets.length > 0) {
    const timestamp = Math.floor(input.now / 1000);
    const signatures = input.secrets.map((s) => `v1=${signatureOf(s, timestamp, input.body)}`);
    headers['Flagstaff-Signature'] = [`t=${timestamp}`, ...signatures].join(',');
  }
  return headers;
}

/** The plain secrets that sign now: the current one, and the previous one until its overlap ends. */
export function activeSecrets(stored: AddonSigningSecrets | null, codec: SecretCodec, now: number): string[] {
  if (!stored) return [];
  const secrets: string[] = [];
  const current = codec.open(stored.current);
  if (current) secrets.push(current);
  if (stored.previous && stored.previousExpiresAt !== null && stored.previousExpiresAt > now) {
    const previous = codec.open(stored.previous);
    if (previous) secrets.push(previous);
  }
  return secrets;
}
