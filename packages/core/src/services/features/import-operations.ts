import type { Caller } from '../../auth/caller.js';
import {
  type ImportBodyInput,
  type ImportValidation,
  importBodySchema,
  importResultSchema,
  importValidationSchema,
} from '../../domain/feature-export.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { applyImport } from './import-apply.js';
import { validateImport } from './import-validation.js';

/** Features an import must bring for the planner statistics to be refreshed after it. */
const BULK_IMPORT = 1000;

/**
 * `POST /api/admin/features-batch/validate`: what an import would run into (errors, warnings and
 * the permissions the caller lacks, all of them at once), nothing written.
 */
export const validateFeatureImport = defineOperation({
  id: 'features.validateImport',
  summary: 'Validate an import: every error, warning and missing permission, nothing written',
  kind: 'read',
  permission: 'NONE',
  input: importBodySchema,
  output: importValidationSchema,
  run: async (body, { repos, deps, caller }) =>
    (await validateImport(repos, deps.policy, caller, body)).validation,
});

/**
 * `POST /api/admin/features-batch/import`: validates, then applies the import in one transaction
 * through the regular commands (their events and permission checks), ending with
 * features-imported. Any error or missing permission refuses it as a whole (VALIDATION, or
 * FORBIDDEN when only permissions are missing, with every problem in `details`), writing nothing.
 */
export const importFeatures = defineOperation({
  id: 'features.import',
  summary: 'Import features into a project and environment (features-imported)',
  kind: 'write',
  // Each permission the import needs is judged by the validation, so all missing ones are listed.
  permission: 'NONE',
  guard: (body, { deps }) =>
    deps.policy.requireDirectChange('UPDATE_FEATURE_ENVIRONMENT', {
      project: body.project,
      environment: body.environment,
    }),
  input: importBodySchema,
  output: importResultSchema,
  run: async (body, { repos, deps, caller, actor }) => {
    const { validation, target } = await validateImport(repos, deps.policy, caller, body);
    const problems = [...validation.errors, ...validation.permissions];
    if (problems.length > 0)
      throw new FlagstaffError(
        validation.errors.length === 0 ? 'FORBIDDEN' : 'VALIDATION',
        `The import was refused: ${problems.map((p) => `${p.message} ${p.affectedItems.join(', ')}`).join(' ')}`,
        { errors: validation.errors, permissions: validation.permissions },
      );
    const imported = await applyImport(deps, repos, caller, body, target);
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'features-imported',
        project: body.project,
        environment: body.environment,
        data: { features: body.data.features.map((f) => f.name) },
      },
    ]);
    return { imported };
  },
  // A large import changes the tables' shape enough that a planner working from the statistics of
  // before would scan where an index serves (see the store's `refreshStatistics`). The import is
  // committed whatever happens here: a failure is worth a warning, not a refusal.
  committed: async ({ imported }, deps) => {
    if (imported < BULK_IMPORT) return;
    await deps.store.refreshStatistics?.().catch((error: unknown) =>
      deps.logger.warn('Could not refresh the planner statistics after an import.', {
        error: String(error),
      }),
    );
  },
});

/** Importing features (Unleash's features-batch API): typed wrappers. */
export function createImportService(run: OperationRunner) {
  return {
    /** What an import would run into: errors, warnings and missing permissions, nothing written. */
    validate: (caller: Caller, input: ImportBodyInput): Promise<ImportValidation> =>
      run(validateFeatureImport, caller, input),
    /** Applies an import in one transaction, or refuses it as a whole. */
    import: (caller: Caller, input: ImportBodyInput): Promise<{ imported: number }> =>
      run(importFeatures, caller, input),
  };
}

export type ImportService = ReturnType<typeof createImportService>;
