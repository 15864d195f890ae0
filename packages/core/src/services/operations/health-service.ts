import type { Caller } from '../../auth/caller.js';
import { FlagstaffError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';

/** `GET /health` and `GET /ready`, for load balancers and orchestrators (public). */
export function createHealthService(deps: ServiceDeps) {
  return {
    /** The process is up. */
    async health(caller: Caller): Promise<{ health: 'GOOD' }> {
      await deps.policy.require(caller, 'NONE', {}, 'public');
      return { health: 'GOOD' };
    },
    /** The process can serve: its store answers a read. STORE_UNAVAILABLE (503) otherwise. */
    async ready(caller: Caller): Promise<{ health: 'GOOD' }> {
      await deps.policy.require(caller, 'NONE', {}, 'public');
      try {
        await deps.store.settings.get('ready.check');
      } catch (error) {
        throw new FlagstaffError(
          'STORE_UNAVAILABLE',
          `Not ready: the store "${deps.store.name}" does not answer.`,
          undefined,
          {
            cause: error,
          },
        );
      }
      return { health: 'GOOD' };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
