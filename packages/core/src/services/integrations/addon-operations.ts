import { z } from 'zod';
import {
  type Addon,
  type AddonProviderDefinition,
  addonInputSchema,
  addonListSchema,
  addonViewSchema,
  type CreatedAddon,
  createdAddonSchema,
  rotatedSigningSecretSchema,
} from '../../domain/addon.js';
import { conflict, FlagstaffError, invalid } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import {
  checkDestinations,
  eventData,
  MASKED_VALUE,
  maskedView,
  openParameters,
  sealParameters,
  sensitiveNames,
  urlParameters,
} from './addon-parameters.js';
import { ADDON_PROVIDERS } from './addon-providers.js';
import { newSigningSecret } from './addon-signing.js';
import {
  HEALTHY,
  requireAddon,
  requireProvider,
  validateParameters,
  withStatus,
} from './addon-validation.js';

const id = z.number().int();

/** Provider definitions: their parameters and the events they can forward. */
export const addonProviders = (): AddonProviderDefinition[] =>
  [...ADDON_PROVIDERS.values()].map((p) => structuredClone(p.definition));

/** Wakes delivery once a write on addons has ended. */
const settled = (deps: OperationDeps): void => deps.addons.settle();

/**
 * Every addon (sensitive parameters masked) and the providers. Admins only: an addon's
 * destinations and delivery state are an operator's business.
 */
export const listAddons = defineOperation({
  id: 'addons.list',
  summary: 'List addons and providers',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: addonListSchema,
  run: async (_input, { repos }) => ({
    addons: await withStatus(repos, await repos.addons.list()),
    providers: addonProviders(),
  }),
});

/** One addon (sensitive parameters masked) with its delivery state, or NOT_FOUND; Admins only. */
export const getAddon = defineOperation({
  id: 'addons.get',
  summary: 'Get an addon',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ id }),
  output: addonViewSchema,
  run: async (input, { repos }) => {
    const [view] = await withStatus(repos, [await requireAddon(repos, input.id)]);
    return view as z.input<typeof addonViewSchema>;
  },
});

/** Checks a new addon's provider, parameters and destinations (before the transaction: DNS must not hold the store). */
async function checkNewAddon(
  body: z.output<typeof addonInputSchema>,
  { deps }: { deps: OperationDeps },
): Promise<void> {
  const provider = requireProvider(body.provider);
  validateParameters(provider, body.parameters);
  const { http, outbound } = deps.addons;
  await checkDestinations(provider, body.parameters, outbound, http.refusal?.bind(http));
}

/**
 * Creates an addon (addon-config-created, without sensitive parameters). A webhook gets a signing
 * secret, answered this once as `signingSecret`.
 */
export const createAddon = defineOperation({
  id: 'addons.create',
  summary: 'Create an addon',
  kind: 'write',
  permission: 'CREATE_ADDON',
  input: addonInputSchema,
  output: createdAddonSchema,
  guard: checkNewAddon,
  run: async (body, { deps, repos, actor }) => {
    const provider = requireProvider(body.provider);
    const { box, codec } = deps.addons;
    const addon = await repos.addons.insert({
      provider: body.provider,
      description: body.description ?? null,
      enabled: body.enabled,
      parameters: sealParameters(body.provider, body.parameters, box),
      events: body.events,
      projects: body.projects,
      environments: body.environments,
      createdAt: nowIso(deps),
    });
    await writeEvents(repos, actor, addon.createdAt, [
      { type: 'addon-config-created', data: eventData(addon) },
    ]);
    const view: CreatedAddon = { ...maskedView(addon), delivery: HEALTHY };
    if (provider.signed) {
      const secret = newSigningSecret(deps.ids);
      await repos.addons.setSigningSecrets(addon.id, {
        current: codec.seal(secret),
        previous: null,
        previousExpiresAt: null,
      });
      view.signingSecret = secret;
    }
    deps.addons.noteChanged();
    return view;
  },
  settled,
});

const updateAddonInput = addonInputSchema.extend({ id });
type UpdateAddonInput = z.output<typeof updateAddonInput>;

function sameProvider(body: UpdateAddonInput, before: Addon): void {
  if (body.provider !== before.provider)
    throw new FlagstaffError(
      'VALIDATION',
      `"provider" must stay "${before.provider}"; create a new addon to change it.`,
      { path: 'provider' },
    );
}

/** The new parameters in plain: as sent, with masked or missing secrets kept as stored. */
function mergeParameters(
  deps: OperationDeps,
  body: UpdateAddonInput,
  before: Addon,
): Record<string, unknown> {
  const stored = openParameters(before.parameters, deps.addons.box);
  const parameters = { ...body.parameters };
  for (const name of sensitiveNames(before.provider)) {
    const kept = parameters[name] === MASKED_VALUE || parameters[name] === undefined;
    if (!kept || before.parameters[name] === undefined) continue;
    if (stored.unreadable.includes(name))
      throw invalid(`parameters.${name}`, 'was sealed under another server key; send its value again.');
    parameters[name] = stored.parameters[name];
  }
  return parameters;
}

/** The parameters each update's guard checked, for its `run` to compare with what it reads in the transaction. */
const checkedParameters = new WeakMap<UpdateAddonInput, Record<string, unknown>>();

/**
 * Replaces an addon's configuration (addon-config-updated). A sensitive parameter sent back masked
 * (or left out) keeps its stored value, so UIs can save without re-entering secrets. Destinations
 * are checked before the transaction; CONFLICT when they changed meanwhile.
 */
export const updateAddon = defineOperation({
  id: 'addons.update',
  summary: 'Update an addon',
  kind: 'write',
  permission: 'UPDATE_ADDON',
  input: updateAddonInput,
  output: addonViewSchema,
  guard: async (body, { deps }) => {
    const provider = requireProvider(body.provider);
    const current = await requireAddon(deps.store, body.id);
    sameProvider(body, current);
    const checked = mergeParameters(deps, body, current);
    validateParameters(provider, checked);
    const { http, outbound } = deps.addons;
    await checkDestinations(provider, checked, outbound, http.refusal?.bind(http));
    checkedParameters.set(body, checked);
  },
  run: async (body, { deps, repos, actor }) => {
    const provider = requireProvider(body.provider);
    const checked = checkedParameters.get(body) ?? {};
    const before = await requireAddon(repos, body.id);
    sameProvider(body, before);
    const parameters = mergeParameters(deps, body, before);
    if (urlParameters(provider).some((name) => parameters[name] !== checked[name]))
      throw conflict(`Addon ${body.id} changed while it was being saved; try again.`);
    const after: Addon = {
      ...before,
      description: body.description === undefined ? before.description : body.description,
      enabled: body.enabled,
      parameters: sealParameters(before.provider, parameters, deps.addons.box),
      events: body.events,
      projects: body.projects,
      environments: body.environments,
    };
    await repos.addons.update(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'addon-config-updated', data: eventData(after), preData: eventData(before) },
    ]);
    deps.addons.noteChanged();
    return (await withStatus(repos, [after]))[0] as z.input<typeof addonViewSchema>;
  },
  settled,
});

/**
 * Replaces a webhook's signing secret and answers the new one, this once. The previous secret keeps
 * signing beside it (a second `v1=`) for the overlap, so receivers can switch without dropping a
 * delivery. Logged as addon-config-updated (without secrets).
 */
export const rotateAddonSigningSecret = defineOperation({
  id: 'addons.rotateSigningSecret',
  summary: "Rotate a webhook's signing secret (answered once; the previous one signs too for 24 hours)",
  kind: 'write',
  permission: 'UPDATE_ADDON',
  input: z.object({ id }),
  output: rotatedSigningSecretSchema,
  run: async (input, { deps, repos, actor }) => {
    const { codec, rotationOverlapMs } = deps.addons;
    const secret = newSigningSecret(deps.ids);
    const until = deps.clock.now().getTime() + rotationOverlapMs;
    const addon = await requireAddon(repos, input.id);
    if (!ADDON_PROVIDERS.get(addon.provider)?.signed)
      throw invalid(
        'id',
        `addon ${input.id} uses the "${addon.provider}" provider, whose deliveries are not signed.`,
      );
    const stored = await repos.addons.getSigningSecrets(input.id);
    await repos.addons.setSigningSecrets(input.id, {
      current: codec.seal(secret),
      previous: stored?.current ?? null,
      previousExpiresAt: stored ? until : null,
    });
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'addon-config-updated',
        data: { ...eventData(addon), signingSecretRotated: true },
        preData: eventData(addon),
      },
    ]);
    return { signingSecret: secret, previousValidUntil: new Date(until).toISOString() };
  },
});

/** Deletes an addon (addon-config-deleted); NOT_FOUND when unknown. */
export const deleteAddon = defineOperation({
  id: 'addons.delete',
  summary: 'Delete an addon',
  kind: 'write',
  permission: 'DELETE_ADDON',
  input: z.object({ id }),
  output: z.null(),
  run: async (input, { deps, repos, actor }) => {
    const before = await requireAddon(repos, input.id);
    await repos.addons.delete(input.id);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'addon-config-deleted', preData: eventData(before) },
    ]);
    return null;
  },
});
