import { z } from 'zod';
import { changeRequestViewSchema, stateInputSchema } from '../../domain/change-request.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { ApplyRefused, createApplier } from './change-request-apply.js';
import { save } from './change-request-changes.js';
import { requireRequest, userOf } from './change-request-records.js';
import { transition } from './change-request-states.js';
import { viewOf } from './change-request-view.js';

/**
 * PUT …/change-requests/:id/state: moves the request through its states (`transition` judges who
 * may do what: the author sends and cancels, reviewers with APPROVE_CHANGE_REQUEST approve and
 * reject, APPLY_CHANGE_REQUEST schedules and applies). `Applied` runs every change at once.
 *
 * A command: applying runs the changes in one transaction and, when they are refused, records why
 * in another (the refusal must stay while the changes roll back); a comment given with the apply
 * is saved once the request is Applied. Anyone who sees the project may ask; the transition decides.
 */
export const changeChangeRequestState = defineOperation({
  id: 'changeRequests.changeState',
  summary: 'Send to review, approve, reject, cancel, schedule or apply a change request',
  kind: 'command',
  permission: 'NONE',
  scope: ({ project }) => ({ project }),
  input: stateInputSchema.extend({ project: z.string(), id: z.number() }),
  output: changeRequestViewSchema,
  run: async (input, { deps, repos, caller, actor, transaction }) => {
    const record = await requireRequest(repos, input.project, input.id);
    const scope = { project: record.project, environment: record.environment };
    const who = {
      user: userOf(caller),
      mayApprove: await deps.policy.allows(caller, 'APPROVE_CHANGE_REQUEST', scope),
      mayApply: await deps.policy.allows(caller, 'APPLY_CHANGE_REQUEST', scope),
    };
    const at = nowIso(deps);
    const effect = transition(record, input.state, who, at, {
      scheduledAt: input.scheduledAt,
      now: deps.clock.now().getTime(),
    });
    const comments = input.comment
      ? [
          ...record.comments,
          {
            id: Math.max(0, ...record.comments.map((c) => c.id)) + 1,
            text: input.comment,
            user: who.user,
            createdAt: at,
          },
        ]
      : record.comments;
    if (effect.kind === 'state') {
      const next = { ...effect.record, comments };
      await transaction((tx) => save(tx, actor, record, next, effect.events));
      return viewOf(repos, next);
    }
    const applied = await createApplier(deps)
      .apply({ expected: record, caller, actor, at, events: ['change-request-applied'], schedule: null })
      .catch((error: unknown) => {
        if (error instanceof ApplyRefused)
          throw new FlagstaffError('CONFLICT', `The change request was not applied: ${error.message}`);
        throw error;
      });
    if (input.comment) await transaction((tx) => save(tx, actor, applied, { ...applied, comments }, []));
    return viewOf(repos, { ...applied, comments });
  },
});
