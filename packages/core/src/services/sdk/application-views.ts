import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type {
  ApplicationDetails,
  ApplicationInstances,
  ApplicationList,
  ApplicationOverview,
  applicationMetaSchema,
  FeatureRawMetrics,
  FeatureUsage,
  OutdatedSdks,
  rawMetricsQuerySchema,
  UnknownFlags,
} from '../../domain/application.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  applicationInstances,
  applicationOverview,
  deleteApplication,
  featureRawMetrics,
  featureUsage,
  getApplication,
  listApplications,
  outdatedSdks,
  unknownFlags,
  upsertApplication,
} from './application-operations.js';

export { isOutdatedSdk, MINIMUM_SDK_VERSIONS } from './application-operations.js';

/**
 * The reference's application and feature-usage views over what SDKs register and report, for
 * in-process callers: typed wrappers over the operations in `application-operations.ts`.
 */
export function createApplicationViews(run: OperationRunner) {
  return {
    /** GET /api/admin/metrics/applications: every application with the environments it was seen in. */
    list: (caller: Caller): Promise<ApplicationList> => run(listApplications, caller, {}),
    /** GET /api/admin/metrics/applications/:appName. */
    get: (caller: Caller, appName: string): Promise<ApplicationDetails> =>
      run(getApplication, caller, { appName }),
    /** POST /api/admin/metrics/applications/:appName: description, URL, color, icon (application-created). */
    upsert: (caller: Caller, appName: string, meta: z.input<typeof applicationMetaSchema>): Promise<void> =>
      run(upsertApplication, caller, { ...meta, appName }),
    /** DELETE /api/admin/metrics/applications/:appName: forgets its registrations and details. */
    delete: (caller: Caller, appName: string): Promise<void> => run(deleteApplication, caller, { appName }),
    /** GET /api/admin/metrics/applications/:appName/overview: per environment, instances, SDKs, features. */
    overview: (caller: Caller, appName: string): Promise<ApplicationOverview> =>
      run(applicationOverview, caller, { appName }),
    /** GET /api/admin/metrics/instances/:appName/environment/:environment. */
    instances: (caller: Caller, appName: string, environment: string): Promise<ApplicationInstances> =>
      run(applicationInstances, caller, { appName, environment }),
    /** GET /api/admin/client-metrics/features/:name: the last hour per environment, and the apps using it. */
    featureUsage: (caller: Caller, name: string): Promise<FeatureUsage> =>
      run(featureUsage, caller, { name }),
    /** GET /api/admin/client-metrics/features/:name/raw?hoursBack=: the hourly buckets. */
    featureRaw: (
      caller: Caller,
      name: string,
      query: z.input<typeof rawMetricsQuerySchema> = {},
    ): Promise<FeatureRawMetrics> => run(featureRawMetrics, caller, { ...query, name }),
    /** GET /api/admin/metrics/sdks/outdated, or per project. */
    outdatedSdks: (caller: Caller, project?: string): Promise<OutdatedSdks> =>
      run(outdatedSdks, caller, project === undefined ? {} : { project }),
    /** GET /api/admin/metrics/unknown-flags: names SDKs report that no feature has. */
    unknownFlags: (caller: Caller): Promise<UnknownFlags> => run(unknownFlags, caller, {}),
  };
}

export type ApplicationViews = ReturnType<typeof createApplicationViews>;
