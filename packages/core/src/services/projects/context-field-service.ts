import type { Caller } from '../../auth/caller.js';
import type { ContextField } from '../../domain/context-field.js';
import type { OperationInput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { runnerOf } from '../service-runner.js';
import {
  createContextField,
  deleteContextField,
  deleteContextFieldLegalValue,
  getContextField,
  listContextFields,
  setContextFieldLegalValue,
  updateContextField,
  validateContextFieldName,
} from './context-field-operations.js';

type Body<Op> = Omit<OperationInput<Op>, 'contextField'>;

/**
 * Context fields that constraints and stickiness refer to, for in-process callers: typed wrappers
 * over `context-field-operations.ts`. Without a runner (an import inside its own transaction), one
 * over `deps` runs them.
 */
export function createContextFieldService(deps: ServiceDeps, run: OperationRunner = runnerOf(deps)) {
  return {
    /** The instance's context fields (project-scoped ones are listed by their project). */
    list: (caller: Caller): Promise<ContextField[]> => run(listContextFields, caller, {}),
    get: (caller: Caller, name: string): Promise<ContextField> =>
      run(getContextField, caller, { contextField: name }),
    /** VALIDATION for a name `create` would refuse, CONFLICT when it is taken. */
    validateName: (caller: Caller, input: OperationInput<typeof validateContextFieldName>): Promise<void> =>
      run(validateContextFieldName, caller, input),
    /** Creates a context field (context-field-created). */
    create: (caller: Caller, input: OperationInput<typeof createContextField>): Promise<ContextField> =>
      run(createContextField, caller, input),
    /** Updates description, stickiness, sort order and legal values (context-field-updated). */
    update: (caller: Caller, name: string, input: Body<typeof updateContextField>): Promise<ContextField> =>
      run(updateContextField, caller, { ...input, contextField: name }),
    /** Adds a legal value, or replaces the description of one the field has (context-field-updated). */
    setLegalValue: (
      caller: Caller,
      name: string,
      input: Body<typeof setContextFieldLegalValue>,
    ): Promise<ContextField> => run(setContextFieldLegalValue, caller, { ...input, contextField: name }),
    /** Removes a legal value (context-field-updated); NOT_FOUND when the field does not have it. */
    deleteLegalValue: (caller: Caller, name: string, value: string): Promise<ContextField> =>
      run(deleteContextFieldLegalValue, caller, { contextField: name, value }),
    /** Deletes a context field (context-field-deleted). */
    delete: (caller: Caller, name: string): Promise<void> =>
      run(deleteContextField, caller, { contextField: name }),
  };
}

export type ContextFieldService = ReturnType<typeof createContextFieldService>;
