import type { Caller } from '../../auth/caller.js';
import type { Environment } from '../../domain/environment.js';
import type { OperationInput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  createEnvironment,
  deleteEnvironment,
  getEnvironment,
  listEnvironments,
  setEnvironmentEnabled,
  updateEnvironment,
  validateEnvironmentName,
} from './environment-operations.js';

export { validateEnvironmentNameSchema } from '../../domain/environment.js';
export { requireEnvironment } from './environment-operations.js';

type Body<Op, Omitted extends string> = Omit<OperationInput<Op>, Omitted>;

/** Environments for in-process callers: typed wrappers over `environment-operations.ts`. */
export function createEnvironmentService(run: OperationRunner) {
  return {
    /** Every environment of the instance. */
    list: async (caller: Caller): Promise<Environment[]> =>
      (await run(listEnvironments, caller, {})).environments,
    get: (caller: Caller, name: string): Promise<Environment> => run(getEnvironment, caller, { name }),
    /** VALIDATION for a name create would refuse, CONFLICT when taken. */
    validateName: (caller: Caller, input: OperationInput<typeof validateEnvironmentName>): Promise<void> =>
      run(validateEnvironmentName, caller, input),
    /** Creates an environment (environment-created). */
    create: (caller: Caller, input: OperationInput<typeof createEnvironment>): Promise<Environment> =>
      run(createEnvironment, caller, input),
    /** Changes type or sort order (environment-updated). */
    update: (
      caller: Caller,
      name: string,
      input: Body<typeof updateEnvironment, 'name'>,
    ): Promise<Environment> => run(updateEnvironment, caller, { ...input, name }),
    /** Turns an environment on or off instance-wide (environment-updated). */
    setEnabled: (caller: Caller, name: string, enabled: boolean): Promise<void> =>
      run(setEnvironmentEnabled, caller, { name, enabled }),
    /** Deletes an unprotected environment (environment-deleted). */
    delete: (caller: Caller, name: string): Promise<void> => run(deleteEnvironment, caller, { name }),
  };
}

export type EnvironmentService = ReturnType<typeof createEnvironmentService>;
