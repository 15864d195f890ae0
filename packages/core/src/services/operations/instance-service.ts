import type { Caller } from '../../auth/caller.js';
import type { InstanceStatistics, UiConfig } from '../../domain/instance.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { setFrontendOrigins } from './frontend-origins.js';
import type { InstanceState } from './instance-state.js';
import { getInstanceStatistics, getInstanceStatisticsCsv } from './instance-statistics.js';
import { getUiConfig } from './ui-config.js';

/** The UI configuration, the frontend API's origins and instance statistics: typed wrappers. */
export function createInstanceService(run: OperationRunner, state: InstanceState) {
  return {
    uiConfig: (caller: Caller): Promise<UiConfig> => run(getUiConfig, caller, {}),
    /** The origins browsers may call the frontend API from (no caller: the CORS check asks it). */
    frontendOrigins: (): Promise<string[]> => state.frontendOrigins.read(),
    /** Which origins may call the frontend API (root Admins). */
    async setFrontendOrigins(caller: Caller, input: { frontendApiOrigins: string[] }): Promise<void> {
      await run(setFrontendOrigins, caller, input);
    },
    /** Counts of what the instance holds (root Admins). */
    statistics: (caller: Caller): Promise<InstanceStatistics> => run(getInstanceStatistics, caller, {}),
    /** The statistics as CSV. */
    statisticsCsv: (caller: Caller): Promise<string> => run(getInstanceStatisticsCsv, caller, {}),
  };
}

export type InstanceService = ReturnType<typeof createInstanceService>;
