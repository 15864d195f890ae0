import { z } from 'zod';
import { actionSetInputSchema, actionSetSchema } from '../../domain/signal.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { ACTION_PARAMS } from './signal-actions.js';

/** Action sets, ordered by id: every one, or those of one project. */
export const listActionSets = defineOperation({
  id: 'signals.actionSets.list',
  summary: 'List the action sets of a project',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ project: z.string().min(1).optional() }),
  output: z.strictObject({ actions: z.array(actionSetSchema) }),
  run: async ({ project }, { repos }) => ({
    actions: (await repos.signals.listActionSets()).filter(
      (a) => project === undefined || a.project === project,
    ),
  }),
});

/** Each action with the parameters it needs, acting in the set's own project (never another one). */
function actionsOf(body: z.output<typeof actionSetInputSchema>) {
  return body.actions.map((a, i) => {
    const params: Record<string, string> = {
      ...a.executionParams,
      project: a.executionParams['project'] ?? body.project,
    };
    if (params.project !== body.project)
      throw invalid(
        `actions[${i}].executionParams.project`,
        `must be "${body.project}", the action set's project.`,
      );
    for (const name of ACTION_PARAMS[a.action] ?? [])
      if (!params[name])
        throw invalid(`actions[${i}].executionParams.${name}`, `is required by ${a.action}.`);
    return { action: a.action, sortOrder: a.sortOrder, executionParams: params };
  });
}

/**
 * Creates an action set (actions-created): what to do when a signal endpoint receives a matching
 * payload. Its source endpoint, project and actor must exist.
 */
export const createActionSet = defineOperation({
  id: 'signals.actionSets.create',
  summary: 'Create an action set',
  kind: 'write',
  permission: 'ADMIN',
  input: actionSetInputSchema,
  output: actionSetSchema,
  run: async (body, { deps, repos, actor }) => {
    const actions = actionsOf(body);
    await requireProject(repos, body.project);
    if (!(await repos.signals.getEndpoint(body.match.sourceId)))
      throw new FlagstaffError(
        'NOT_FOUND',
        `"match.sourceId": could not find signal endpoint "${body.match.sourceId}".`,
        {
          path: 'match.sourceId',
        },
      );
    if (body.actorId !== undefined && !(await repos.users.get(body.actorId)))
      throw new FlagstaffError('NOT_FOUND', `"actorId": could not find user "${body.actorId}".`, {
        path: 'actorId',
      });
    const set = await repos.signals.insertActionSet({
      name: body.name,
      description: body.description ?? null,
      enabled: body.enabled,
      project: body.project,
      actorId: body.actorId ?? null,
      match: body.match,
      actions,
      createdAt: nowIso(deps),
    });
    await writeEvents(repos, actor, set.createdAt, [
      { type: 'actions-created', project: set.project, data: set },
    ]);
    return set;
  },
});

/** Deletes an action set (actions-deleted). */
export const deleteActionSet = defineOperation({
  id: 'signals.actionSets.delete',
  summary: 'Delete an action set',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ id: z.number().int() }),
  output: z.void(),
  run: async ({ id }, { deps, repos, actor }) => {
    const before = (await repos.signals.listActionSets()).find((s) => s.id === id);
    if (!before) throw notFound('action set', id);
    await repos.signals.deleteActionSet(id);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'actions-deleted', project: before.project, preData: before },
    ]);
  },
});
