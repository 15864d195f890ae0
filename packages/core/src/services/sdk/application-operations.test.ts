import { beforeEach, describe, expect, it } from 'vitest';
import { isFlagstaffError } from '../../errors.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, userCaller } from '../test-support.js';
import { isOutdatedSdk } from './application-operations.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

const register = (
  appName: string,
  instanceId: string,
  sdkVersion: string | null,
  environment = 'development',
) =>
  flagstaff.store.transaction((tx) =>
    tx.metrics.upsertApplication({
      appName,
      instanceId,
      sdkVersion,
      environment,
      strategies: ['default'],
      lastSeen: '2026-01-01T00:00:00.000Z',
    }),
  );

describe('applications operations', () => {
  it('lists, shows and scopes registered applications', async () => {
    await register('web', 'i-1', 'unleash-client-node:5.0.0');
    await register('web', 'i-2', 'unleash-client-node:6.0.0', 'production');
    const list = await flagstaff.applications.list(alice);
    expect(list).toEqual({
      applications: [
        { appName: 'web', usage: [{ project: '*', environments: ['development', 'production'] }] },
      ],
      total: 1,
    });
    const one = await flagstaff.applications.get(alice, 'web');
    expect(one.instances.map((i) => i.instanceId)).toEqual(['i-1', 'i-2']);
    expect((await flagstaff.applications.instances(alice, 'web', 'production')).instances).toHaveLength(1);
    expect(await flagstaff.applications.outdatedSdks(alice)).toEqual({
      sdks: [{ sdkVersion: 'unleash-client-node:5.0.0', applications: ['web'] }],
    });
    await expect(flagstaff.applications.get(alice, 'nope')).rejects.toSatisfy((e) =>
      isFlagstaffError(e, 'NOT_FOUND'),
    );
  });

  it('sets details in one write with its event; a Viewer is refused before the body is judged', async () => {
    await flagstaff.applications.upsert(alice, 'web', { description: 'Shop', color: 'blue' });
    expect(await eventTypesSince(flagstaff)).toContain('application-created');
    expect(await flagstaff.applications.get(alice, 'web')).toMatchObject({
      description: 'Shop',
      color: 'blue',
    });
    await expect(
      flagstaff.applications.upsert(userCaller(9, 'Viewer'), 'web', { url: 'not a url' }),
    ).rejects.toSatisfy((e) => isFlagstaffError(e, 'FORBIDDEN'));
    await expect(flagstaff.applications.upsert(alice, 'web', { url: 'not a url' })).rejects.toSatisfy((e) =>
      isFlagstaffError(e, 'VALIDATION'),
    );
    await flagstaff.applications.delete(alice, 'web');
    await expect(flagstaff.applications.delete(alice, 'web')).rejects.toSatisfy((e) =>
      isFlagstaffError(e, 'NOT_FOUND'),
    );
  });

  it('knows the official SDKs older than their minimums', () => {
    expect(isOutdatedSdk('unleash-client-node:5.3.1')).toBe(true);
    expect(isOutdatedSdk('unleash-client-node:5.3.2')).toBe(false);
    expect(isOutdatedSdk('my-sdk:1.0.0')).toBe(false);
    expect(isOutdatedSdk(null)).toBe(false);
  });
});
