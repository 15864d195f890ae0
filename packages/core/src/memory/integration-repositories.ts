import { conflict } from '../errors.js';
import type { AddonRepository, SignalRepository } from '../ports/integration-ports.js';
import { createAddonQueueMethods } from './addon-queue-repository.js';
import { copy } from './copy.js';
import type { AddonDeliveryRow, Session } from './database.js';
import { compare, type Sync, sorted } from './support.js';

const byId = (a: { id: number }, b: { id: number }): number => compare(a.id, b.id);

/** Addon configurations over a session. */
export function createAddonRepository(s: Session): Sync<AddonRepository> {
  const addons = s.table('addons');
  const delivery = s.table('addonDelivery');
  const row = (): AddonDeliveryRow => delivery.get(1) ?? { eventId: null, holder: null, expiresAt: null };
  const { forget, ...queue } = createAddonQueueMethods(s);
  return {
    ...queue,
    getDeliveredThrough: () => row().eventId,
    setDeliveredThrough(eventId) {
      delivery.set(1, { ...row(), eventId });
    },
    getDeliveryLease() {
      const { holder, expiresAt } = row();
      return holder === null || expiresAt === null ? null : { holder, expiresAt };
    },
    acquireDeliveryLease(holder, now, expiresAt) {
      const current = row();
      const taken = current.holder !== null && current.holder !== holder;
      if (taken && current.expiresAt !== null && current.expiresAt > now) return null;
      delivery.set(1, { ...current, holder, expiresAt });
      return { deliveredThrough: current.eventId };
    },
    advanceDeliveredThrough(holder, eventId, expiresAt) {
      const current = row();
      if (current.holder !== holder || (current.eventId !== null && current.eventId > eventId)) return false;
      delivery.set(1, { eventId, holder, expiresAt });
      return true;
    },
    releaseDeliveryLease(holder) {
      const current = row();
      if (current.holder !== holder) return false;
      delivery.set(1, { ...current, holder: null, expiresAt: null });
      return true;
    },
    list: () => sorted(addons.rows(), byId).map(copy),
    get: (id) => copy(addons.get(id) ?? null),
    insert(addon) {
      const stored = { ...copy(addon), id: s.nextId('addons') };
      addons.set(stored.id, stored);
      return copy(stored);
    },
    update(addon) {
      if (!addons.has(addon.id)) return false;
      addons.set(addon.id, copy(addon));
      return true;
    },
    delete(id) {
      forget(id);
      return addons.delete(id);
    },
  };
}

/** Signal endpoints, their tokens and signals, and action sets over a session. */
export function createSignalRepository(s: Session): Sync<SignalRepository> {
  const endpoints = s.table('signalEndpoints');
  const tokens = s.table('signalTokens');
  const signals = s.table('signals');
  const actionSets = s.table('actionSets');
  const assertNameFree = (name: string, exceptId?: number): void => {
    if (endpoints.rows().some((endpoint) => endpoint.name === name && endpoint.id !== exceptId)) {
      throw conflict(`A signal endpoint named "${name}" already exists.`);
    }
  };
  return {
    listEndpoints: () => sorted(endpoints.rows(), byId).map(copy),
    getEndpoint: (id) => copy(endpoints.get(id) ?? null),
    getEndpointByName: (name) => copy(endpoints.rows().find((endpoint) => endpoint.name === name) ?? null),
    insertEndpoint(endpoint) {
      assertNameFree(endpoint.name);
      const stored = { ...copy(endpoint), id: s.nextId('signalEndpoints') };
      endpoints.set(stored.id, stored);
      return copy(stored);
    },
    updateEndpoint(endpoint) {
      if (!endpoints.has(endpoint.id)) return false;
      assertNameFree(endpoint.name, endpoint.id);
      endpoints.set(endpoint.id, copy(endpoint));
      return true;
    },
    deleteEndpoint(id) {
      if (!endpoints.delete(id)) return false;
      tokens.deleteWhere((token) => token.signalEndpointId === id);
      signals.deleteWhere((signal) => signal.source === 'signal-endpoint' && signal.sourceId === id);
      return true;
    },
    listTokens: (endpointId) =>
      sorted(
        tokens.rows().filter((token) => token.signalEndpointId === endpointId),
        byId,
      ).map(copy),
    insertToken(token) {
      const stored = { ...copy(token), id: s.nextId('signalTokens') };
      tokens.set(stored.id, stored);
      return copy(stored);
    },
    deleteToken(endpointId, tokenId) {
      if (tokens.get(tokenId)?.signalEndpointId !== endpointId) return false;
      return tokens.delete(tokenId);
    },
    insertSignal(signal) {
      const stored = { ...copy(signal), id: s.nextId('signals') };
      if (stored.payload === undefined) stored.payload = null;
      signals.set(stored.id, stored);
      return copy(stored);
    },
    listSignals(endpointId, limit) {
      const mine = signals
        .rows()
        .filter((signal) => signal.source === 'signal-endpoint' && signal.sourceId === endpointId);
      return sorted(mine, (a, b) => compare(b.id, a.id))
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    listActionSets: () => sorted(actionSets.rows(), byId).map(copy),
    insertActionSet(set) {
      const stored = { ...copy(set), id: s.nextId('actionSets') };
      actionSets.set(stored.id, stored);
      return copy(stored);
    },
    deleteActionSet: (id) => actionSets.delete(id),
  };
}
