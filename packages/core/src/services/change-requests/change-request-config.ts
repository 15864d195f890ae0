import { z } from 'zod';
import { changeRequestConfigInputSchema, changeRequestConfigSchema } from '../../domain/change-request.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject, requireProjectEnvironment } from '../projects/project-service.js';

/** `GET …/change-requests/config`: every environment of the project with its setting. */
export const getChangeRequestConfig = defineOperation({
  id: 'changeRequests.config.get',
  summary: 'Change-request settings of every environment of a project',
  kind: 'read',
  permission: 'NONE',
  scope: ({ project }) => ({ project }),
  input: z.object({ project: z.string() }),
  output: changeRequestConfigSchema,
  run: async ({ project }, { repos }) => {
    await requireProject(repos, project);
    const [links, environments, settings] = await Promise.all([
      repos.environments.listForProject(project),
      repos.environments.list(),
      repos.changeRequests.listSettings(project),
    ]);
    const linked = new Set(links.map((l) => l.environment));
    return environments
      .filter((e) => linked.has(e.name))
      .map((e) => {
        const setting = settings.find((s) => s.environment === e.name);
        return {
          environment: e.name,
          type: e.type,
          changeRequestEnabled: setting?.enabled ?? false,
          requiredApprovals: setting?.requiredApprovals ?? 1,
        };
      });
  },
});

/** `PUT …/environments/:environment/change-requests/config` (change-request-configuration-updated). */
export const setChangeRequestConfig = defineOperation({
  id: 'changeRequests.config.set',
  summary: 'Require change requests in an environment of a project (or not), and how many approvals',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: ({ project }) => ({ project }),
  input: changeRequestConfigInputSchema.extend({ project: z.string(), environment: z.string() }),
  output: z.null(),
  run: async (body, { deps, repos, actor }) => {
    const { project, environment } = body;
    await requireProjectEnvironment(repos, project, environment);
    const before = (await repos.changeRequests.listSettings(project)).find(
      (s) => s.environment === environment,
    );
    const setting = {
      project,
      environment,
      enabled: body.changeRequestsEnabled,
      requiredApprovals: body.requiredApprovals ?? before?.requiredApprovals ?? 1,
    };
    await repos.changeRequests.saveSetting(setting);
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'change-request-configuration-updated',
        project,
        environment,
        data: { changeRequestsEnabled: setting.enabled, requiredApprovals: setting.requiredApprovals },
        preData: before
          ? { changeRequestsEnabled: before.enabled, requiredApprovals: before.requiredApprovals }
          : null,
      },
    ]);
    return null;
  },
});
