import type { Caller } from '../../auth/caller.js';
import type { DoraMetrics, InstanceInsights } from '../../domain/insights.js';
import type { ProjectEnvironmentView, ProjectOverview } from '../../domain/project.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  instanceInsights,
  projectDora,
  projectEnvironments,
  projectHealth,
  projectOverview,
} from './insights-operations.js';

/**
 * Read models for in-process callers: typed wrappers over the operations in
 * `insights-operations.ts` (project overview and environments, health, DORA, instance insights).
 */
export function createInsightsService(run: OperationRunner) {
  return {
    /** Health (0–100) of a project's live features now. */
    health: (caller: Caller, projectId: string): Promise<number> =>
      run(projectHealth, caller, { project: projectId }),
    /** DORA lead time to production of the project's release features. */
    dora: (caller: Caller, projectId: string): Promise<DoraMetrics> =>
      run(projectDora, caller, { project: projectId }),
    /** GET /projects/:projectId/overview: stats windows, members, health, environments, type counts. */
    overview: (caller: Caller, projectId: string): Promise<ProjectOverview> =>
      run(projectOverview, caller, { project: projectId }),
    /** GET /environments/project/:projectId: the project's environments with token and enabled-feature counts. */
    projectEnvironments: (
      caller: Caller,
      projectId: string,
    ): Promise<{ version: 1; environments: ProjectEnvironmentView[] }> =>
      run(projectEnvironments, caller, { project: projectId }),
    /** GET /insights: users, flags and 12 weeks of trends over the projects the caller may see. */
    instanceInsights: (caller: Caller): Promise<InstanceInsights> => run(instanceInsights, caller, {}),
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
