import { z } from 'zod';
import { type UiConfig, uiConfigSchema } from '../../domain/instance.js';
import { defineOperation } from '../../operations/define-operation.js';

/** The version Flagstaff reports as its own (its package version). */
export const FLAGSTAFF_VERSION = '0.1.0';

/** `GET /api/admin/ui-config`: what UIs and tools read about the instance (any signed-in caller). */
export const getUiConfig = defineOperation({
  id: 'instance.uiConfig',
  summary: 'What UIs and tools read about the instance: name, version, base path, maintenance mode',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: uiConfigSchema,
  run: async (_input, { deps }): Promise<UiConfig> => {
    const base = (deps.instance.baseUrl ?? '').replace(/\/+$/, '');
    return {
      name: 'Flagstaff',
      version: FLAGSTAFF_VERSION,
      slogan: 'Feature flags inside your Node app',
      environment: 'Flagstaff',
      baseUriPath: base ? new URL(base, 'http://x').pathname.replace(/\/+$/, '') : '',
      unleashUrl: base,
      authenticationType: 'simple',
      disablePasswordAuth: false,
      emailEnabled: false,
      maintenanceMode: await deps.instance.maintenance.isOn(),
      frontendApiOrigins: await deps.instance.frontendOrigins.read(),
      segmentValuesLimit: 1000,
      strategySegmentsLimit: 5,
      versionInfo: { current: { oss: FLAGSTAFF_VERSION }, latest: {}, isLatest: true },
      flags: {},
      links: [],
    };
  },
});
