import type { Addon, AddonView } from '../../domain/addon.js';
import type { AddonDeliveryStatus, AddonQueueSummary } from '../../domain/addon-delivery.js';
import { invalid, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { maskedView } from './addon-parameters.js';
import { ADDON_PROVIDERS, type AddonProvider } from './addon-providers.js';

export function requireProvider(name: string): AddonProvider {
  const provider = ADDON_PROVIDERS.get(name);
  if (!provider)
    throw invalid(
      'provider',
      `must be one of ${[...ADDON_PROVIDERS.keys()].map((n) => `"${n}"`).join(', ')}; "${name}" is unknown.`,
    );
  return provider;
}

/** Checks parameters against the provider: required ones present, URLs http(s), provider-specific rules. */
export function validateParameters(provider: AddonProvider, parameters: Record<string, unknown>): void {
  for (const p of provider.definition.parameters) {
    const value = parameters[p.name];
    const missing =
      value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (missing) {
      if (p.required)
        throw invalid(`parameters.${p.name}`, `is required by the "${provider.definition.name}" provider.`);
      continue;
    }
    if (typeof value !== 'string') throw invalid(`parameters.${p.name}`, 'must be a string.');
    if (p.type === 'url') {
      let protocol = '';
      try {
        protocol = new URL(value).protocol;
      } catch {}
      if (protocol !== 'http:' && protocol !== 'https:')
        throw invalid(`parameters.${p.name}`, 'must be an http or https URL.');
    }
  }
  provider.validate?.(parameters);
}

/** The addon, or NOT_FOUND (an id that is no integer names no addon). */
export async function requireAddon(repos: ReadRepositories, id: number): Promise<Addon> {
  const addon = Number.isSafeInteger(id) ? await repos.addons.get(id) : null;
  if (!addon) throw notFound('addon', id);
  return addon;
}

export const HEALTHY: AddonDeliveryStatus = {
  state: 'healthy',
  pending: 0,
  parked: 0,
  retryingSince: null,
  lastError: null,
};

function statusOf(summary: AddonQueueSummary | undefined): AddonDeliveryStatus {
  if (!summary) return HEALTHY;
  const retrying = summary.failingSince !== null;
  return {
    state: retrying ? 'retrying' : summary.parked > 0 ? 'parked' : 'healthy',
    pending: summary.pending,
    parked: summary.parked,
    retryingSince: retrying ? new Date(summary.failingSince as number).toISOString() : null,
    lastError: summary.lastError,
  };
}

/** Addons as reads show them: sensitive parameters masked, with their delivery state. */
export async function withStatus(repos: ReadRepositories, addons: Addon[]): Promise<AddonView[]> {
  const summaries = new Map((await repos.addons.summarizeDeliveries()).map((q) => [q.addonId, q]));
  return addons.map((a) => ({ ...maskedView(a), delivery: statusOf(summaries.get(a.id)) }));
}
