import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instanceStatisticsSchema, uiConfigSchema } from '../../domain/instance.js';
import type { Flagstaff } from '../../flagstaff.js';
import { createAddon } from '../integrations/addon-operations.js';
import { alice, createTestFlagstaff, userCaller } from '../test-support.js';
import { createBackup } from './backup-service.js';
import { getInstanceStatistics } from './instance-statistics.js';
import { getMaintenanceMode, setMaintenanceMode } from './maintenance.js';
import { getUiConfig } from './ui-config.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});
afterEach(() => flagstaff.close());

const viewer = userCaller(21, 'Viewer');

describe('instance operations on the memory store', () => {
  it('answer in the shapes their output schemas declare', async () => {
    expect(uiConfigSchema.parse(await flagstaff.run(getUiConfig, viewer, {}))).toMatchObject({
      maintenanceMode: false,
      frontendApiOrigins: ['*'],
    });
    expect(
      instanceStatisticsSchema.parse(await flagstaff.run(getInstanceStatistics, alice, {})).projects,
    ).toBe(1);
  });

  it('turns maintenance off while it is on, and refuses other writes meanwhile', async () => {
    await flagstaff.run(setMaintenanceMode, alice, { enabled: true });
    expect(await flagstaff.run(getMaintenanceMode, viewer, {})).toEqual({ enabled: true });
    await expect(flagstaff.features.create(alice, 'default', { name: 'blocked' })).rejects.toMatchObject({
      code: 'MAINTENANCE',
    });
    await flagstaff.run(setMaintenanceMode, alice, { enabled: false });
    expect((await flagstaff.instance.uiConfig(alice)).maintenanceMode).toBe(false);
  });

  it('judges the caller before the input: a Viewer gets FORBIDDEN for a bad body, an Admin VALIDATION', async () => {
    await expect(flagstaff.run.unknown(setMaintenanceMode, viewer, { enabled: 'yes' })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN',
      },
    );
    await expect(flagstaff.run.unknown(setMaintenanceMode, alice, { enabled: 'yes' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(flagstaff.run.unknown(createAddon, viewer, { provider: 'webhook' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('has no backup for the memory store, and none for anyone but Admins', async () => {
    await expect(flagstaff.run(createBackup, viewer, { destination: 'x.db' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.backups.create(alice, 'x.db')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
