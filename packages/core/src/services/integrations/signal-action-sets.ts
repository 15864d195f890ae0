import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import { type ActionSet, actionSetInputSchema } from '../../domain/signal.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { ACTION_PARAMS } from './signal-actions.js';

/** Action sets: what to do when a signal endpoint receives a matching payload. */
export function createActionSets(deps: ServiceDeps) {
  const { store } = deps;
  return {
    /** Every action set, ordered by id. */
    async list(caller: Caller): Promise<ActionSet[]> {
      await deps.policy.require(caller, 'ADMIN');
      return store.signals.listActionSets();
    },

    /**
     * Creates an action set (actions-created). Its source endpoint, project and actor must exist;
     * each action names the parameters it needs, and acts in the set's own project.
     */
    async create(caller: Caller, input: unknown): Promise<ActionSet> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(actionSetInputSchema, input);
      const actions = body.actions.map((a, i) => {
        // Action sets belong to a project: their actions may not reach into another one.
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
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, body.project);
        if (!(await tx.signals.getEndpoint(body.match.sourceId)))
          throw new FlagstaffError(
            'NOT_FOUND',
            `"match.sourceId": could not find signal endpoint "${body.match.sourceId}".`,
            {
              path: 'match.sourceId',
            },
          );
        if (body.actorId !== undefined && !(await tx.users.get(body.actorId)))
          throw new FlagstaffError('NOT_FOUND', `"actorId": could not find user "${body.actorId}".`, {
            path: 'actorId',
          });
        const set = await tx.signals.insertActionSet({
          name: body.name,
          description: body.description ?? null,
          enabled: body.enabled,
          project: body.project,
          actorId: body.actorId ?? null,
          match: body.match,
          actions,
          createdAt: nowIso(deps),
        });
        await writeEvents(tx, actor, set.createdAt, [
          { type: 'actions-created', project: set.project, data: set },
        ]);
        return set;
      });
    },

    /** Deletes an action set (actions-deleted). */
    async delete(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return inTransaction(deps, async (tx) => {
        const before = (await tx.signals.listActionSets()).find((s) => s.id === id);
        if (!before) throw notFound('action set', id);
        await tx.signals.deleteActionSet(id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'actions-deleted', project: before.project, preData: before },
        ]);
      });
    },
  };
}
