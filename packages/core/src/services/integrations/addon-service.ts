import type { Caller } from '../../auth/caller.js';
import { createSecretBox } from '../../auth/secret-box.js';
import { type Addon, type AddonProviderDefinition, addonInputSchema } from '../../domain/addon.js';
import type { AddonDeliveryStatus, AddonQueueSummary } from '../../domain/addon-delivery.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, FlagstaffError, invalid, notFound } from '../../errors.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { type AddonDeliveryOptions, createAddonDelivery } from './addon-delivery.js';
import { createDeliveryViews } from './addon-delivery-views.js';
import {
  checkDestinations,
  eventData,
  hasClearSecrets,
  MASKED_VALUE,
  maskedView,
  openParameters,
  sealParameters,
  sensitiveNames,
  urlParameters,
} from './addon-parameters.js';
import { ADDON_PROVIDERS, type AddonProvider } from './addon-providers.js';
import { createSecretCodec, DEFAULT_ROTATION_OVERLAP_MS, newSigningSecret } from './addon-signing.js';
import { createOutboundPolicy, type OutboundPolicy } from './outbound-policy.js';

export { MASKED_VALUE } from './addon-parameters.js';

function requireProvider(name: string): AddonProvider {
  const provider = ADDON_PROVIDERS.get(name);
  if (!provider)
    throw invalid(
      'provider',
      `must be one of ${[...ADDON_PROVIDERS.keys()].map((n) => `"${n}"`).join(', ')}; "${name}" is unknown.`,
    );
  return provider;
}

/** Checks parameters against the provider: required ones present, URLs http(s), provider-specific rules. */
function validateParameters(provider: AddonProvider, parameters: Record<string, unknown>): void {
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

/** An addon as reads show it: with its delivery state. */
export type AddonView = Addon & { delivery: AddonDeliveryStatus };

/** What creating a webhook answers once: the addon and the secret its deliveries are signed with. */
export type CreatedAddon = AddonView & { signingSecret?: string };

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

const HEALTHY: AddonDeliveryStatus = {
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

/** Addons: configurations that forward events to webhooks and chat tools, and their delivery. */
export function createAddonService(
  deps: ServiceDeps & { http: HttpClient },
  options: AddonServiceOptions = {},
) {
  const { store } = deps;
  const box = options.secretKey ? createSecretBox(options.secretKey) : null;
  const codec = createSecretCodec(box);
  const outbound = options.outbound ?? createOutboundPolicy();
  const delivery = createAddonDelivery(deps, { ...options, outbound }, codec, box);
  const views = createDeliveryViews(deps, delivery);

  async function withStatus(addons: Addon[]): Promise<AddonView[]> {
    const summaries = new Map((await store.addons.summarizeDeliveries()).map((q) => [q.addonId, q]));
    return addons.map((a) => ({ ...maskedView(a), delivery: statusOf(summaries.get(a.id)) }));
  }

  async function requireAddon(repos: ReadRepositories, id: number): Promise<Addon> {
    const addon = Number.isSafeInteger(id) ? await repos.addons.get(id) : null;
    if (!addon) throw notFound('addon', id);
    return addon;
  }

  const definitions = (): AddonProviderDefinition[] =>
    [...ADDON_PROVIDERS.values()].map((p) => structuredClone(p.definition));

  return {
    /** Provider definitions: their parameters and the events they can forward. */
    providers: definitions,

    /**
     * GET /addons: every addon (sensitive parameters masked) and the providers. Admins only: an
     * addon's destinations and delivery state are an operator's business.
     */
    async list(caller: Caller): Promise<{ addons: AddonView[]; providers: AddonProviderDefinition[] }> {
      await deps.policy.require(caller, 'ADMIN', {});
      return { addons: await withStatus(await store.addons.list()), providers: definitions() };
    },

    /** One addon (sensitive parameters masked) with its delivery state, or NOT_FOUND; Admins only. */
    async get(caller: Caller, id: number): Promise<AddonView> {
      await deps.policy.require(caller, 'ADMIN', {});
      const [view] = await withStatus([await requireAddon(store, id)]);
      return view as AddonView;
    },

    /**
     * Creates an addon (addon-config-created, without sensitive parameters). A webhook gets a signing
     * secret, answered this once as `signingSecret`.
     */
    async create(caller: Caller, input: unknown): Promise<CreatedAddon> {
      const actor = await deps.policy.permit(caller, 'CREATE_ADDON', {});
      const body = parseWith(addonInputSchema, input);
      const provider = requireProvider(body.provider);
      validateParameters(provider, body.parameters);
      await checkDestinations(provider, body.parameters, outbound, deps.http.refusal?.bind(deps.http));
      const created = await inTransaction(deps, async (tx) => {
        const addon = await tx.addons.insert({
          provider: body.provider,
          description: body.description ?? null,
          enabled: body.enabled,
          parameters: sealParameters(body.provider, body.parameters, box),
          events: body.events,
          projects: body.projects,
          environments: body.environments,
          createdAt: nowIso(deps),
        });
        await writeEvents(tx, actor, addon.createdAt, [
          { type: 'addon-config-created', data: eventData(addon) },
        ]);
        const view: CreatedAddon = { ...maskedView(addon), delivery: HEALTHY };
        if (provider.signed) {
          const secret = newSigningSecret(deps.ids);
          await tx.addons.setSigningSecrets(addon.id, {
            current: codec.seal(secret),
            previous: null,
            previousExpiresAt: null,
          });
          view.signingSecret = secret;
        }
        return view;
      });
      delivery.addonsChanged();
      return created;
    },

    /**
     * Replaces an addon's configuration (addon-config-updated). A sensitive parameter sent back
     * masked (or left out) keeps its stored value, so UIs can save without re-entering secrets.
     */
    async update(caller: Caller, id: number, input: unknown): Promise<AddonView> {
      const actor = await deps.policy.permit(caller, 'UPDATE_ADDON', {});
      const body = parseWith(addonInputSchema, input);
      const provider = requireProvider(body.provider);
      const sameProvider = (before: Addon): void => {
        if (body.provider !== before.provider)
          throw new FlagstaffError(
            'VALIDATION',
            `"provider" must stay "${before.provider}"; create a new addon to change it.`,
            { path: 'provider' },
          );
      };
      /** The new parameters in plain: as sent, with masked or missing secrets kept as stored. */
      const merge = (before: Addon): Record<string, unknown> => {
        const stored = openParameters(before.parameters, box);
        const parameters = { ...body.parameters };
        for (const name of sensitiveNames(before.provider)) {
          const kept = parameters[name] === MASKED_VALUE || parameters[name] === undefined;
          if (!kept || before.parameters[name] === undefined) continue;
          if (stored.unreadable.includes(name))
            throw invalid(`parameters.${name}`, 'was sealed under another server key; send its value again.');
          parameters[name] = stored.parameters[name];
        }
        return parameters;
      };
      // Destinations are checked before the transaction: resolving a name must not hold the store.
      const current = await requireAddon(store, id);
      sameProvider(current);
      const checked = merge(current);
      validateParameters(provider, checked);
      await checkDestinations(provider, checked, outbound, deps.http.refusal?.bind(deps.http));
      const updated = await inTransaction(deps, async (tx) => {
        const before = await requireAddon(tx, id);
        sameProvider(before);
        const parameters = merge(before);
        if (urlParameters(provider).some((name) => parameters[name] !== checked[name]))
          throw conflict(`Addon ${id} changed while it was being saved; try again.`);
        const after: Addon = {
          ...before,
          description: body.description === undefined ? before.description : body.description,
          enabled: body.enabled,
          parameters: sealParameters(before.provider, parameters, box),
          events: body.events,
          projects: body.projects,
          environments: body.environments,
        };
        await tx.addons.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'addon-config-updated', data: eventData(after), preData: eventData(before) },
        ]);
        return after;
      });
      delivery.addonsChanged();
      return (await withStatus([updated]))[0] as AddonView;
    },

    /**
     * Replaces a webhook's signing secret and answers the new one, this once. The previous secret
     * keeps signing beside it (a second `v1=`) for the overlap, so receivers can switch without
     * dropping a delivery. Logged as addon-config-updated (without secrets).
     */
    async rotateSigningSecret(
      caller: Caller,
      id: number,
    ): Promise<{ signingSecret: string; previousValidUntil: string }> {
      const actor = await deps.policy.permit(caller, 'UPDATE_ADDON', {});
      const secret = newSigningSecret(deps.ids);
      const now = deps.clock.now().getTime();
      const until = now + (options.rotationOverlapMs ?? DEFAULT_ROTATION_OVERLAP_MS);
      await inTransaction(deps, async (tx) => {
        const addon = await requireAddon(tx, id);
        if (!ADDON_PROVIDERS.get(addon.provider)?.signed)
          throw invalid(
            'id',
            `addon ${id} uses the "${addon.provider}" provider, whose deliveries are not signed.`,
          );
        const stored = await tx.addons.getSigningSecrets(id);
        await tx.addons.setSigningSecrets(id, {
          current: codec.seal(secret),
          previous: stored?.current ?? null,
          previousExpiresAt: stored ? until : null,
        });
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type: 'addon-config-updated',
            data: { ...eventData(addon), signingSecretRotated: true },
            preData: eventData(addon),
          },
        ]);
      });
      return { signingSecret: secret, previousValidUntil: new Date(until).toISOString() };
    },

    ...views,

    /** Deletes an addon (addon-config-deleted); NOT_FOUND when unknown. */
    async delete(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_ADDON', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireAddon(tx, id);
        await tx.addons.delete(id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'addon-config-deleted', preData: eventData(before) },
        ]);
      });
    },

    /**
     * Seals sensitive parameters still stored in clear (rows written before they were sealed, or
     * before a server key was set); createFlagstaff runs it at start. Answers how many addons.
     */
    async sealStoredSecrets(): Promise<number> {
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
    deliverPending: (): Promise<void> => delivery.deliverPending(),

    /** Stops background delivery (flagstaff.close calls it). */
    async stop(): Promise<void> {
      await delivery.stop();
      if (options.closeHttp) deps.http.close?.();
    },
  };
}

export type AddonService = ReturnType<typeof createAddonService>;
