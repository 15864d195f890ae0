import type { Caller } from '../../auth/caller.js';
import type { OperationOutput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  getProjectHealthReport,
  getProjectInsights,
  getProjectStatus,
  listProjectApplications,
  listProjectFlagCreators,
} from './project-status-operations.js';

type Out<Op> = Promise<OperationOutput<Op>>;

/** The project views beyond the overview, for in-process callers: typed wrappers over `project-status-operations.ts`. */
export function createProjectViews(run: OperationRunner) {
  return {
    /** Who created the project's features. */
    flagCreators: (caller: Caller, project: string): Out<typeof listProjectFlagCreators> =>
      run(listProjectFlagCreators, caller, { project }),
    /** Applications that reported the project's features (48 h). */
    applications: (caller: Caller, project: string): Out<typeof listProjectApplications> =>
      run(listProjectApplications, caller, { project }),
    /** Activity, resources, health, lifecycle summary, stale flags. */
    status: (caller: Caller, project: string): Out<typeof getProjectStatus> =>
      run(getProjectStatus, caller, { project }),
    /** The overview with staleness counts. */
    healthReport: (caller: Caller, project: string): Out<typeof getProjectHealthReport> =>
      run(getProjectHealthReport, caller, { project }),
    /** Stats, type counts, lead time (DORA), health and members. */
    insights: (caller: Caller, project: string): Out<typeof getProjectInsights> =>
      run(getProjectInsights, caller, { project }),
  };
}

export type ProjectViews = ReturnType<typeof createProjectViews>;
