import type { SecretBox } from '../../auth/secret-box.js';
import type { Addon } from '../../domain/addon.js';
import { invalid } from '../../errors.js';
import { ADDON_PROVIDERS, type AddonProvider } from './addon-providers.js';
import { BLOCKED, type OutboundPolicy, parseIp } from './outbound-policy.js';

/** What reads show instead of a sensitive parameter; sending it back on update keeps the stored value. */
export const MASKED_VALUE = '*****';

/** Names of the provider's parameters that carry secrets (masked in reads, sealed at rest). */
export const sensitiveNames = (provider: string): Set<string> =>
  new Set(
    ADDON_PROVIDERS.get(provider)
      ?.definition.parameters.filter((p) => p.sensitive)
      .map((p) => p.name) ?? [],
  );

/**
 * A sensitive value at rest: `{ sealed: "v1.…" }` (AES-256-GCM under the server key). An object, so
 * it can never be taken for a plain value, which is always a string; rows written before sealing
 * (or without a server key) hold the plain string and keep working.
 */
interface SealedValue {
  sealed: string;
}
const isSealed = (v: unknown): v is SealedValue =>
  typeof v === 'object' && v !== null && typeof (v as { sealed?: unknown }).sealed === 'string';

/** The addon as reads return it: sensitive parameter values masked. */
export function maskedView(addon: Addon): Addon {
  const sensitive = sensitiveNames(addon.provider);
  const parameters = Object.fromEntries(
    Object.entries(addon.parameters).map(([k, v]) => [
      k,
      sensitive.has(k) && v !== undefined && v !== '' ? MASKED_VALUE : v,
    ]),
  );
  return {
    ...addon,
    parameters,
    events: [...addon.events],
    projects: [...addon.projects],
    environments: [...addon.environments],
  };
}

/** The addon as events carry it: sensitive parameters left out altogether. */
export function eventData(addon: Addon): Addon {
  const sensitive = sensitiveNames(addon.provider);
  return {
    ...addon,
    parameters: Object.fromEntries(Object.entries(addon.parameters).filter(([k]) => !sensitive.has(k))),
  };
}

/** Seals the sensitive parameters that are plain, non-empty strings (all of them as they are without a box). */
export function sealParameters(
  provider: string,
  parameters: Record<string, unknown>,
  box: SecretBox | null,
): Record<string, unknown> {
  if (!box) return parameters;
  const sensitive = sensitiveNames(provider);
  return Object.fromEntries(
    Object.entries(parameters).map(([k, v]) => [
      k,
      sensitive.has(k) && typeof v === 'string' && v !== '' ? ({ sealed: box.seal(v) } as SealedValue) : v,
    ]),
  );
}

/**
 * The parameters with sealed values opened. `unreadable` names those sealed under another key (the
 * server key changed): they are left out.
 */
export function openParameters(
  parameters: Record<string, unknown>,
  box: SecretBox | null,
): { parameters: Record<string, unknown>; unreadable: string[] } {
  const unreadable: string[] = [];
  const open: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parameters)) {
    if (!isSealed(v)) open[k] = v;
    else {
      const plain = box?.open(v.sealed) ?? null;
      if (plain === null) unreadable.push(k);
      else open[k] = plain;
    }
  }
  return { parameters: open, unreadable };
}

/** Whether stored parameters still hold a sensitive value in clear that a box could seal. */
export const hasClearSecrets = (addon: Addon): boolean =>
  [...sensitiveNames(addon.provider)].some((k) => {
    const v = addon.parameters[k];
    return typeof v === 'string' && v !== '';
  });

/** The parameter names holding URLs the provider posts to. */
export const urlParameters = (provider: AddonProvider): string[] =>
  provider.definition.parameters.filter((p) => p.type === 'url').map((p) => p.name);

/** Why the policy refuses a URL whose host is an IP literal, or null (names are resolved elsewhere). */
export function literalRefusal(policy: OutboundPolicy, url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (!parseIp(bare)) return null;
  const why = policy.refusal(bare, host);
  return why && `${BLOCKED}: ${why}`;
}

/**
 * Refuses, as a VALIDATION error naming the parameter, a URL the outbound policy refuses as things
 * stand: an IP literal at once, a host name when `resolveRefusal` (the HTTP client's) finds it
 * resolves to a refused address. A name that does not resolve passes; delivery checks again.
 */
export async function checkDestinations(
  provider: AddonProvider,
  parameters: Record<string, unknown>,
  policy: OutboundPolicy,
  resolveRefusal: ((url: string) => Promise<string | null>) | undefined,
): Promise<void> {
  for (const name of urlParameters(provider)) {
    const url = parameters[name];
    if (typeof url !== 'string' || url === '') continue;
    const why = literalRefusal(policy, url) ?? (await resolveRefusal?.(url)) ?? null;
    if (why)
      throw invalid(
        `parameters.${name}`,
        `is ${why} (the server's FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS can let it in).`,
      );
  }
}
