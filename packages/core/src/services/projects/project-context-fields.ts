import type { Caller } from '../../auth/caller.js';
import type { ContextField } from '../../domain/context-field.js';
import type { OperationInput, OperationOutput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  createProjectContextField,
  deleteProjectContextField,
  deleteProjectContextFieldLegalValue,
  getProjectContextField,
  listProjectContextFieldStrategies,
  listProjectContextFields,
  setProjectContextFieldLegalValue,
  updateProjectContextField,
  validateProjectContextFieldName,
} from './project-context-field-operations.js';

type Body<Op> = Omit<OperationInput<Op>, 'project' | 'contextField'>;

/**
 * Project-scoped context fields for in-process callers: typed wrappers over
 * `project-context-field-operations.ts`.
 */
export function createProjectContextFields(run: OperationRunner) {
  return {
    list: (caller: Caller, project: string): Promise<ContextField[]> =>
      run(listProjectContextFields, caller, { project }),
    get: (caller: Caller, project: string, name: string): Promise<ContextField> =>
      run(getProjectContextField, caller, { project, contextField: name }),
    validateName: (
      caller: Caller,
      project: string,
      input: Body<typeof validateProjectContextFieldName>,
    ): Promise<void> => run(validateProjectContextFieldName, caller, { ...input, project }),
    create: (
      caller: Caller,
      project: string,
      input: Body<typeof createProjectContextField>,
    ): Promise<ContextField> => run(createProjectContextField, caller, { ...input, project }),
    update: (
      caller: Caller,
      project: string,
      name: string,
      input: Body<typeof updateProjectContextField>,
    ): Promise<ContextField> =>
      run(updateProjectContextField, caller, { ...input, project, contextField: name }),
    delete: (caller: Caller, project: string, name: string): Promise<void> =>
      run(deleteProjectContextField, caller, { project, contextField: name }),
    setLegalValue: (
      caller: Caller,
      project: string,
      name: string,
      input: Body<typeof setProjectContextFieldLegalValue>,
    ): Promise<ContextField> =>
      run(setProjectContextFieldLegalValue, caller, { ...input, project, contextField: name }),
    deleteLegalValue: (caller: Caller, project: string, name: string, value: string): Promise<ContextField> =>
      run(deleteProjectContextFieldLegalValue, caller, { project, contextField: name, value }),
    /** Feature strategies of the project constrained on the field. */
    strategies: (
      caller: Caller,
      project: string,
      name: string,
    ): Promise<OperationOutput<typeof listProjectContextFieldStrategies>> =>
      run(listProjectContextFieldStrategies, caller, { project, contextField: name }),
  };
}

export type ProjectContextFields = ReturnType<typeof createProjectContextFields>;
