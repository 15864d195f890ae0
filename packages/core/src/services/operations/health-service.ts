import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { type Health, healthSchema } from '../../domain/instance.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';

/** Liveness: the process is up (public). */
export const checkHealth = defineOperation({
  id: 'health.live',
  summary: 'Liveness: the process is up',
  kind: 'read',
  permission: 'PUBLIC',
  input: z.object({}),
  output: healthSchema,
  run: async () => ({ health: 'GOOD' as const }),
});

/** Readiness: the store answers a read; STORE_UNAVAILABLE (503) otherwise (public). */
export const checkReady = defineOperation({
  id: 'health.ready',
  summary: 'Readiness: the store answers (503 when it does not)',
  kind: 'read',
  permission: 'PUBLIC',
  input: z.object({}),
  output: healthSchema,
  run: async (_input, { deps }) => {
    try {
      await deps.store.settings.get('ready.check');
    } catch (error) {
      throw new FlagstaffError(
        'STORE_UNAVAILABLE',
        `Not ready: the store "${deps.store.name}" does not answer.`,
        undefined,
        { cause: error },
      );
    }
    return { health: 'GOOD' as const };
  },
});

/** `GET /health` and `GET /ready`, for load balancers and orchestrators: typed wrappers. */
export function createHealthService(run: OperationRunner) {
  return {
    /** The process is up. */
    health: (caller: Caller): Promise<Health> => run(checkHealth, caller, {}),
    /** The process can serve: its store answers a read. STORE_UNAVAILABLE (503) otherwise. */
    ready: (caller: Caller): Promise<Health> => run(checkReady, caller, {}),
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
