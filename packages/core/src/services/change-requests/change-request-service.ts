import type { Caller } from '../../auth/caller.js';
import { changeRequestSettingOf } from '../../auth/change-request-guard.js';
import {
  type ChangeInput,
  type ChangeRequestRecord,
  type ChangeRequestUser,
  changeInputListSchema,
  changeInputSchema,
  commentInputSchema,
  reviewersInputSchema,
  type StoredChange,
  stateInputSchema,
  titleInputSchema,
} from '../../domain/change-request.js';
import { parseWith } from '../../domain/parse.js';
import { strategyConfigSchema } from '../../domain/strategy.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { prepareStrategyConfig } from '../features/strategy-rules.js';
import { requireProjectEnvironment } from '../projects/project-service.js';
import { ACTION_PERMISSION, currentStateOf, parsePayload } from './change-actions.js';
import { ApplyRefused, createApplier, requestEvents } from './change-request-apply.js';
import { afterEdit, sameUser, transition } from './change-request-states.js';
import { type ChangeRequestView, viewOf } from './change-request-view.js';

/** The author or participant a caller is, as requests record them. */
export const userOf = (caller: Caller): ChangeRequestUser => ({
  id: caller.actor.userId,
  username: caller.actor.name,
});

/** A stored request of the project; NOT_FOUND for another project's (ids are instance-wide). */
export async function requireRequest(
  repos: Pick<ReadRepositories, 'changeRequests'>,
  project: string,
  id: number,
): Promise<ChangeRequestRecord> {
  const found = Number.isInteger(id) ? await repos.changeRequests.get(id) : null;
  if (!found || found.project !== project) throw notFound('change request', String(id));
  return found;
}

const requireAuthor = (record: ChangeRequestRecord, caller: Caller, what: string): void => {
  if (!sameUser(record.createdBy, userOf(caller)))
    throw new FlagstaffError('FORBIDDEN', `Only the author of a change request can ${what}.`);
};

/** Two changes that set the same thing: the later replaces the earlier in a draft. */
const sameTarget = (a: Pick<StoredChange, 'feature' | 'action' | 'payload'>, b: typeof a): boolean => {
  if (a.action !== b.action || a.feature !== b.feature) return false;
  const idOf = (c: typeof a) => (c.payload as { id?: unknown } | null)?.id;
  switch (a.action) {
    case 'updateEnabled':
    case 'reorderStrategy':
    case 'patchVariant':
    case 'archiveFeature':
      return true;
    case 'updateStrategy':
    case 'deleteStrategy':
    case 'updateSegment':
      return idOf(a) === idOf(b);
    default:
      return false;
  }
};

/** Change requests: drafts, their changes, review, and applying them. */
export function createChangeRequestService(deps: ServiceDeps) {
  const { store } = deps;
  const applier = createApplier(deps);

  /** Checks a change as its direct route would, and records what it acts on now. */
  async function prepareChange(
    caller: Caller,
    project: string,
    environment: string,
    input: ChangeInput,
  ): Promise<Omit<StoredChange, 'id' | 'createdAt'>> {
    await deps.policy.require(caller, ACTION_PERMISSION[input.action], { project, environment });
    const payload = parsePayload(input);
    const feature = input.action === 'updateSegment' ? null : (input.feature ?? null);
    // The strategy checks that read the store (percentages, segments) run as the direct route's do.
    if (input.action === 'addStrategy' || input.action === 'updateStrategy')
      await prepareStrategyConfig(store, feature ?? '', parseWith(strategyConfigSchema, payload), 'payload');
    if (input.action === 'updateSegment') {
      const { id } = payload as { id: number };
      const users = await store.strategies.list({ segmentId: id });
      if (!users.some((s) => s.projectId === project && s.environment === environment))
        throw new FlagstaffError(
          'VALIDATION',
          `"payload.id" segment ${id} is used by no strategy of project "${project}" in "${environment}".`,
          { path: 'payload.id' },
        );
    }
    const base = await currentStateOf(
      store,
      { project, environment },
      { feature, action: input.action, payload },
    );
    if ((input.action === 'updateStrategy' || input.action === 'deleteStrategy') && base === null)
      throw notFound('strategy', (payload as { id: string }).id);
    return { feature, action: input.action, payload, base, createdBy: userOf(caller) };
  }

  /** Saves an edited request and its events, refusing when it changed since it was read. */
  async function save(
    tx: Repositories,
    actor: Actor,
    before: ChangeRequestRecord,
    next: ChangeRequestRecord,
    events: readonly string[],
  ): Promise<void> {
    const current = await tx.changeRequests.get(before.id);
    if (!current || current.updatedAt !== before.updatedAt || current.state !== before.state)
      throw new FlagstaffError(
        'CONFLICT',
        `Change request ${before.id} changed meanwhile; reload it and try again.`,
      );
    await tx.changeRequests.update(next);
    await writeEvents(tx, actor, next.updatedAt, requestEvents(next, events));
  }

  /** Reads a request for a command of its author (or anyone, with `author: false`). */
  async function forCommand(caller: Caller, project: string, id: number, what: string | null) {
    await deps.policy.require(caller, 'NONE', { project });
    const record = await requireRequest(store, project, id);
    if (what !== null) requireAuthor(record, caller, what);
    const actor = await deps.policy.permit(caller, 'NONE', { project, environment: record.environment });
    return { record, actor };
  }

  const view = (record: ChangeRequestRecord): Promise<ChangeRequestView> => viewOf(store, record);

  return {
    /**
     * Adds changes to the caller's draft for the environment, creating it (change-request-created,
     * change-added). A change to what the draft already changes replaces it.
     */
    async addChanges(
      caller: Caller,
      project: string,
      environment: string,
      input: unknown,
    ): Promise<ChangeRequestView> {
      await deps.policy.require(caller, 'NONE', { project, environment });
      // One change or a list; each parsed on its own so errors name the property.
      const inputs = Array.isArray(input)
        ? parseWith(changeInputListSchema, input)
        : [parseWith(changeInputSchema, input)];
      await requireProjectEnvironment(store, project, environment);
      const setting = await changeRequestSettingOf(store, project, environment);
      if (!setting.enabled)
        throw new FlagstaffError(
          'CONFLICT',
          `Change requests are not enabled in the "${environment}" environment of project "${project}"; change it directly.`,
        );
      const prepared: Omit<StoredChange, 'id' | 'createdAt'>[] = [];
      for (const change of inputs) prepared.push(await prepareChange(caller, project, environment, change));
      const actor = await deps.policy.permit(caller, 'NONE', { project, environment });
      const me = userOf(caller);
      const record = await inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        const drafts = await tx.changeRequests.list({ project, environment, states: ['Draft'] });
        let draft = drafts.find((d) => sameUser(d.createdBy, me));
        const events: string[] = [];
        if (!draft) {
          const fresh = {
            project,
            environment,
            title: '',
            state: 'Draft' as const,
            createdBy: me,
            createdAt: at,
            updatedAt: at,
            minApprovals: setting.requiredApprovals,
            changes: [],
            approvals: [],
            rejections: [],
            comments: [],
            reviewers: [],
            schedule: null,
            failure: null,
          };
          const id = await tx.changeRequests.insert(fresh);
          draft = { ...fresh, id, title: `Change request #${id}` };
          events.push('change-request-created');
        }
        let changes = draft.changes;
        let nextId = Math.max(0, ...changes.map((c) => c.id)) + 1;
        for (const change of prepared) {
          changes = [
            ...changes.filter((c) => !sameTarget(c, change)),
            { ...change, id: nextId++, createdAt: at },
          ];
          events.push('change-added');
        }
        const next = { ...draft, changes, updatedAt: at };
        await tx.changeRequests.update(next);
        await writeEvents(tx, actor, at, requestEvents(next, events));
        return next;
      });
      return view(record);
    },

    /** Replaces one change (change-edited); records the state now, which resolves a conflict. */
    async editChange(caller: Caller, project: string, id: number, changeId: number, input: unknown) {
      const { record, actor } = await forCommand(caller, project, id, 'edit its changes');
      const body = parseWith(changeInputSchema, input);
      const existing = record.changes.find((c) => c.id === changeId);
      if (!existing) throw notFound('change', String(changeId));
      const prepared = await prepareChange(caller, project, record.environment, {
        ...body,
        feature: body.feature ?? existing.feature,
      });
      const at = nowIso(deps);
      const changes = record.changes.map((c) =>
        c.id === changeId ? { ...prepared, id: c.id, createdAt: at } : c,
      );
      const next = { ...afterEdit(record, at), changes };
      await inTransaction(deps, (tx) => save(tx, actor, record, next, ['change-edited']));
      return view(next);
    },

    /** Removes one change (change-discarded); a draft left empty is discarded too. */
    async discardChange(caller: Caller, project: string, id: number, changeId: number): Promise<void> {
      const { record, actor } = await forCommand(caller, project, id, 'discard its changes');
      if (!record.changes.some((c) => c.id === changeId)) throw notFound('change', String(changeId));
      const at = nowIso(deps);
      const changes = record.changes.filter((c) => c.id !== changeId);
      await inTransaction(deps, async (tx) => {
        if (changes.length === 0 && record.state === 'Draft') {
          await save(tx, actor, record, { ...record, changes, updatedAt: at }, [
            'change-discarded',
            'change-request-discarded',
          ]);
          await tx.changeRequests.delete(record.id);
        } else await save(tx, actor, record, { ...afterEdit(record, at), changes }, ['change-discarded']);
      });
    },

    /** Deletes a draft (change-request-discarded). */
    async discardDraft(caller: Caller, project: string, id: number): Promise<void> {
      const { record, actor } = await forCommand(caller, project, id, 'discard it');
      if (record.state !== 'Draft')
        throw new FlagstaffError(
          'CONFLICT',
          `Only drafts are discarded; cancel a change request in state "${record.state}".`,
        );
      await inTransaction(deps, async (tx) => {
        await save(tx, actor, record, { ...record, updatedAt: nowIso(deps) }, ['change-request-discarded']);
        await tx.changeRequests.delete(record.id);
      });
    },

    async updateTitle(caller: Caller, project: string, id: number, input: unknown): Promise<void> {
      const { record, actor } = await forCommand(caller, project, id, 'change its title');
      const { title } = parseWith(titleInputSchema, input);
      if (['Applied', 'Cancelled', 'Rejected'].includes(record.state))
        throw new FlagstaffError(
          'CONFLICT',
          `A change request in state "${record.state}" can no longer be changed.`,
        );
      await inTransaction(deps, (tx) =>
        save(tx, actor, record, { ...record, title, updatedAt: nowIso(deps) }, []),
      );
    },

    async addComment(caller: Caller, project: string, id: number, input: unknown): Promise<void> {
      const { record, actor } = await forCommand(caller, project, id, null);
      const { text } = parseWith(commentInputSchema, input);
      const at = nowIso(deps);
      const comment = {
        id: Math.max(0, ...record.comments.map((c) => c.id)) + 1,
        text,
        user: userOf(caller),
        createdAt: at,
      };
      await inTransaction(deps, (tx) =>
        save(tx, actor, record, { ...record, comments: [...record.comments, comment], updatedAt: at }, []),
      );
    },

    /** Sets the users asked to review (the author's choice; each must exist). */
    async setReviewers(caller: Caller, project: string, id: number, input: unknown): Promise<void> {
      const { record, actor } = await forCommand(caller, project, id, 'choose its reviewers');
      const { reviewers } = parseWith(reviewersInputSchema, input);
      for (const [i, userId] of reviewers.entries())
        if (!(await store.users.get(userId)))
          throw new FlagstaffError('VALIDATION', `"reviewers[${i}]" ${userId} is no user.`, {
            path: `reviewers[${i}]`,
          });
      await inTransaction(deps, (tx) =>
        save(
          tx,
          actor,
          record,
          { ...record, reviewers: [...new Set(reviewers)], updatedAt: nowIso(deps) },
          [],
        ),
      );
    },

    /** PUT …/state: moves the request through its states; `Applied` applies every change at once. */
    async changeState(
      caller: Caller,
      project: string,
      id: number,
      input: unknown,
    ): Promise<ChangeRequestView> {
      const { record, actor } = await forCommand(caller, project, id, null);
      const body = parseWith(stateInputSchema, input);
      const scope = { project, environment: record.environment };
      const who = {
        user: userOf(caller),
        mayApprove: await deps.policy.allows(caller, 'APPROVE_CHANGE_REQUEST', scope),
        mayApply: await deps.policy.allows(caller, 'APPLY_CHANGE_REQUEST', scope),
      };
      const at = nowIso(deps);
      const effect = transition(record, body.state, who, at, {
        scheduledAt: body.scheduledAt,
        now: deps.clock.now().getTime(),
      });
      const comments = body.comment
        ? [
            ...record.comments,
            {
              id: Math.max(0, ...record.comments.map((c) => c.id)) + 1,
              text: body.comment,
              user: who.user,
              createdAt: at,
            },
          ]
        : record.comments;
      if (effect.kind === 'state') {
        const next = { ...effect.record, comments };
        await inTransaction(deps, (tx) => save(tx, actor, record, next, effect.events));
        return view(next);
      }
      const applied = await applier
        .apply({ expected: record, caller, actor, at, events: ['change-request-applied'], schedule: null })
        .catch((error: unknown) => {
          if (error instanceof ApplyRefused)
            throw new FlagstaffError('CONFLICT', `The change request was not applied: ${error.message}`);
          throw error;
        });
      if (body.comment)
        await inTransaction(deps, (tx) => save(tx, actor, applied, { ...applied, comments }, []));
      return view({ ...applied, comments });
    },
  };
}

export type ChangeRequestService = ReturnType<typeof createChangeRequestService>;
