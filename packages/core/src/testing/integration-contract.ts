import { describe, expect, test } from 'vitest';
import type { Addon } from '../domain/addon.js';
import type { ActionSet, SignalEndpoint } from '../domain/signal.js';
import { at, expectFailure, project, type StoreFactory, user, useStore } from './fixtures.js';

const addon = (overrides: Partial<Omit<Addon, 'id'>> = {}): Omit<Addon, 'id'> => ({
  provider: 'webhook',
  description: null,
  enabled: true,
  parameters: {},
  events: ['feature-created'],
  projects: [],
  environments: [],
  createdAt: at(0),
  ...overrides,
});

const endpoint = (
  name: string,
  overrides: Partial<Omit<SignalEndpoint, 'id'>> = {},
): Omit<SignalEndpoint, 'id'> => ({
  name,
  description: null,
  enabled: true,
  createdAt: at(0),
  createdByUserId: null,
  ...overrides,
});

const bucket = (
  featureName: string,
  hour: number,
  yes: number,
  no: number,
  variants: Record<string, number> = {},
) => ({
  featureName,
  appName: 'web',
  environment: 'production',
  timestamp: at(hour * 60),
  yes,
  no,
  variants,
});

/** Addons, signal endpoints with their tokens, signals and action sets, and client metrics. */
export function describeIntegrationContract(open: StoreFactory): void {
  describe('addons', () => {
    const store = useStore(open);

    test('insert assigns increasing ids and keeps every field, JSON parameters included', async () => {
      const first = await store().addons.insert(addon());
      const input = addon({
        provider: 'slack',
        description: 'Notify #flags',
        enabled: false,
        parameters: {
          url: 'https://hooks.example/x',
          retries: 3,
          nested: { on: true, list: [1, 'two', null] },
        },
        events: ['feature-created', 'feature-archived'],
        projects: ['alpha'],
        environments: ['production'],
        createdAt: at(7),
      });
      const second = await store().addons.insert(input);
      expect(second).toEqual({ ...input, id: second.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().addons.get(second.id)).toEqual(second);
      expect(await store().addons.get(second.id + 1000)).toBeNull();
      expect(await store().addons.list()).toEqual([first, second]);
    });

    test('update replaces; delete removes; unknown ids are false', async () => {
      const created = await store().addons.insert(addon());
      const changed = {
        ...created,
        enabled: false,
        parameters: { url: 'https://other.example' },
        events: ['feature-deleted'],
      };
      expect(await store().addons.update(changed)).toBe(true);
      expect(await store().addons.get(created.id)).toEqual(changed);
      expect(await store().addons.update({ ...changed, id: created.id + 1000 })).toBe(false);
      expect(await store().addons.delete(created.id)).toBe(true);
      expect(await store().addons.delete(created.id)).toBe(false);
      expect(await store().addons.list()).toEqual([]);
    });

    test('the delivery position starts unset, is replaced by each set, and rolls back with its transaction', async () => {
      expect(await store().addons.getDeliveredThrough()).toBeNull();
      await store().addons.setDeliveredThrough(41);
      await store().addons.setDeliveredThrough(2_000_000_123);
      expect(await store().addons.getDeliveredThrough()).toBe(2_000_000_123);
      await expect(
        store().transaction(async (tx) => {
          await tx.addons.setDeliveredThrough(7);
          expect(await tx.addons.getDeliveredThrough()).toBe(7);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await store().addons.getDeliveredThrough()).toBe(2_000_000_123);
    });
  });

  describe('signals', () => {
    const store = useStore(open);

    test('endpoints: increasing ids, lookups by id and name, unique names, update', async () => {
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const first = await store().signals.insertEndpoint(endpoint('alerts'));
      const input = endpoint('deploys', {
        description: 'CI deploys',
        enabled: false,
        createdAt: at(3),
        createdByUserId: ann,
      });
      const second = await store().signals.insertEndpoint(input);
      expect(second).toEqual({ ...input, id: second.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().signals.getEndpoint(second.id)).toEqual(second);
      expect(await store().signals.getEndpoint(second.id + 1000)).toBeNull();
      expect(await store().signals.getEndpointByName('alerts')).toEqual(first);
      expect(await store().signals.getEndpointByName('nothing')).toBeNull();
      expect(await store().signals.listEndpoints()).toEqual([first, second]);
      await expectFailure(store().signals.insertEndpoint(endpoint('alerts')), 'CONFLICT', 'alerts');

      const changed = { ...first, description: 'changed', enabled: false };
      expect(await store().signals.updateEndpoint(changed)).toBe(true);
      expect(await store().signals.getEndpoint(first.id)).toEqual(changed);
      expect(await store().signals.updateEndpoint({ ...changed, id: second.id + 1000 })).toBe(false);
    });

    test('tokens belong to one endpoint', async () => {
      const alerts = await store().signals.insertEndpoint(endpoint('alerts'));
      const deploys = await store().signals.insertEndpoint(endpoint('deploys'));
      const input = {
        signalEndpointId: alerts.id,
        name: 'pager',
        tokenHash: 'hash-a',
        createdAt: at(1),
        createdByUserId: null,
      };
      const a = await store().signals.insertToken(input);
      const b = await store().signals.insertToken({ ...input, name: 'second', tokenHash: 'hash-b' });
      const c = await store().signals.insertToken({
        ...input,
        signalEndpointId: deploys.id,
        tokenHash: 'hash-c',
      });
      expect(a).toEqual({ ...input, id: a.id });
      expect(b.id).toBeGreaterThan(a.id);
      expect(await store().signals.listTokens(alerts.id)).toEqual([a, b]);
      expect(await store().signals.listTokens(deploys.id)).toEqual([c]);

      expect(await store().signals.deleteToken(deploys.id, a.id)).toBe(false);
      expect(await store().signals.deleteToken(alerts.id, a.id)).toBe(true);
      expect(await store().signals.deleteToken(alerts.id, a.id)).toBe(false);
      expect(await store().signals.listTokens(alerts.id)).toEqual([b]);
    });

    test('signals list newest first, per endpoint, up to the limit', async () => {
      const alerts = await store().signals.insertEndpoint(endpoint('alerts'));
      const deploys = await store().signals.insertEndpoint(endpoint('deploys'));
      const signal = (sourceId: number, n: number) => ({
        source: 'signal-endpoint' as const,
        sourceId,
        payload: { n, text: 'deploy done', ok: true, nothing: null },
        createdAt: at(n),
        tokenName: n % 2 === 0 ? 'pager' : null,
      });
      const inserted = [];
      for (const n of [1, 2, 3]) inserted.push(await store().signals.insertSignal(signal(alerts.id, n)));
      const other = await store().signals.insertSignal(signal(deploys.id, 4));
      expect(inserted[0]).toEqual({ ...signal(alerts.id, 1), id: inserted[0]?.id });
      expect(await store().signals.listSignals(alerts.id, 10)).toEqual([...inserted].reverse());
      expect(await store().signals.listSignals(alerts.id, 2)).toEqual([inserted[2], inserted[1]]);
      expect(await store().signals.listSignals(deploys.id, 10)).toEqual([other]);
    });

    test('deleting an endpoint deletes its tokens and signals', async () => {
      const alerts = await store().signals.insertEndpoint(endpoint('alerts'));
      const deploys = await store().signals.insertEndpoint(endpoint('deploys'));
      const token = { name: 't', tokenHash: 'h', createdAt: at(1), createdByUserId: null };
      await store().signals.insertToken({ ...token, signalEndpointId: alerts.id });
      const kept = await store().signals.insertToken({
        ...token,
        tokenHash: 'h2',
        signalEndpointId: deploys.id,
      });
      const raw = { source: 'signal-endpoint' as const, payload: {}, createdAt: at(1), tokenName: null };
      await store().signals.insertSignal({ ...raw, sourceId: alerts.id });
      const keptSignal = await store().signals.insertSignal({ ...raw, sourceId: deploys.id });

      expect(await store().signals.deleteEndpoint(alerts.id)).toBe(true);
      expect(await store().signals.deleteEndpoint(alerts.id)).toBe(false);
      expect(await store().signals.getEndpoint(alerts.id)).toBeNull();
      expect(await store().signals.listTokens(alerts.id)).toEqual([]);
      expect(await store().signals.listSignals(alerts.id, 10)).toEqual([]);
      expect(await store().signals.listTokens(deploys.id)).toEqual([kept]);
      expect(await store().signals.listSignals(deploys.id, 10)).toEqual([keptSignal]);
    });

    test('action sets: insert with increasing ids, list by id, delete', async () => {
      await store().projects.insert(project('alpha'));
      const alerts = await store().signals.insertEndpoint(endpoint('alerts'));
      const input: Omit<ActionSet, 'id'> = {
        name: 'kill on alert',
        description: null,
        enabled: true,
        project: 'alpha',
        actorId: null,
        match: { source: 'signal-endpoint', sourceId: alerts.id, payload: { severity: 'critical' } },
        actions: [
          {
            action: 'TOGGLE_FEATURE_OFF',
            sortOrder: 0,
            executionParams: { featureName: 'checkout', environment: 'production' },
          },
        ],
        createdAt: at(1),
      };
      const first = await store().signals.insertActionSet(input);
      const second = await store().signals.insertActionSet({ ...input, name: 'second', enabled: false });
      expect(first).toEqual({ ...input, id: first.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().signals.listActionSets()).toEqual([first, second]);
      expect(await store().signals.deleteActionSet(first.id)).toBe(true);
      expect(await store().signals.deleteActionSet(first.id)).toBe(false);
      expect(await store().signals.listActionSets()).toEqual([second]);
    });
  });

  describe('metrics', () => {
    const store = useStore(open);

    test('buckets of the same feature, app, environment and hour add up', async () => {
      await store().metrics.addBuckets([bucket('checkout', 1, 3, 1, { blue: 2 })]);
      await store().metrics.addBuckets([
        bucket('checkout', 1, 4, 0, { blue: 1, red: 5 }),
        bucket('checkout', 2, 1, 1),
        { ...bucket('checkout', 1, 10, 10), appName: 'mobile' },
        { ...bucket('checkout', 1, 20, 20), environment: 'development' },
      ]);
      const all = await store().metrics.listBuckets(at(0));
      const hourOne = all.filter((b) => b.timestamp === at(60));
      expect(hourOne).toHaveLength(3);
      expect(hourOne.find((b) => b.appName === 'web' && b.environment === 'production')).toEqual(
        bucket('checkout', 1, 7, 1, { blue: 3, red: 5 }),
      );
      expect(hourOne.find((b) => b.appName === 'mobile')).toEqual({
        ...bucket('checkout', 1, 10, 10),
        appName: 'mobile',
      });
      expect(all.filter((b) => b.timestamp === at(120))).toEqual([bucket('checkout', 2, 1, 1)]);
    });

    test('listBuckets returns buckets from `since` on, by timestamp', async () => {
      await store().metrics.addBuckets([
        bucket('c', 3, 1, 0),
        bucket('a', 1, 1, 0),
        bucket('b', 2, 1, 0),
        bucket('d', 0, 1, 0),
      ]);
      expect((await store().metrics.listBuckets(at(60))).map((b) => b.featureName)).toEqual(['a', 'b', 'c']);
      expect((await store().metrics.listBuckets(at(61))).map((b) => b.featureName)).toEqual(['b', 'c']);
      expect(await store().metrics.listBuckets(at(1000))).toEqual([]);
      await store().metrics.addBuckets([]);
    });

    test('applications are inserted, then refreshed per app and instance', async () => {
      const web = {
        appName: 'web',
        instanceId: 'i-1',
        sdkVersion: 'unleash-client-node:6.1.0',
        environment: 'production',
        strategies: ['default', 'flexibleRollout'],
        lastSeen: at(1),
      };
      const other = { ...web, instanceId: 'i-2', sdkVersion: null, strategies: [] };
      await store().metrics.upsertApplication(web);
      await store().metrics.upsertApplication(other);
      const refreshed = { ...web, lastSeen: at(5), strategies: ['default'] };
      await store().metrics.upsertApplication(refreshed);
      const apps = await store().metrics.listApplications();
      expect([...apps].sort((a, b) => a.instanceId.localeCompare(b.instanceId))).toEqual([refreshed, other]);
    });
  });
}
