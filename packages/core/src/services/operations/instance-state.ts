import type { Store } from '../../ports/store.js';
import { createFrontendOriginsState, type FrontendOriginsState } from './frontend-origins.js';
import type { MaintenanceState } from './maintenance.js';

/** What the instance operations (maintenance, ui-config, CORS origins) read beyond the store. */
export interface InstanceState {
  maintenance: MaintenanceState;
  frontendOrigins: FrontendOriginsState;
  /** The public URL Flagstaff is served under, when configured. */
  baseUrl: string | undefined;
}

/** The instance state of one Flagstaff over `store`. */
export const createInstanceState = (
  store: Store,
  maintenance: MaintenanceState,
  baseUrl: string | undefined,
): InstanceState => ({ maintenance, frontendOrigins: createFrontendOriginsState(store), baseUrl });
