import { z } from 'zod';
import { changeRequestSettingOf } from '../../auth/change-request-guard.js';
import {
  type ChangeRequestRecord,
  changeInputSchema,
  changeRequestViewSchema,
  commentInputSchema,
  reviewersInputSchema,
  type StoredChange,
  titleInputSchema,
} from '../../domain/change-request.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProjectEnvironment } from '../projects/project-service.js';
import { requestEvents } from './change-request-apply.js';
import {
  parseChanges,
  prepareChange,
  requestFor,
  requireChangePermissions,
  sameTarget,
  save,
} from './change-request-changes.js';
import { requireRequest, userOf } from './change-request-records.js';
import { afterEdit, sameUser } from './change-request-states.js';
import { viewOf } from './change-request-view.js';

const project = z.string();
const id = z.number();
const inProject = ({ project }: { project?: string | undefined }) => ({ project });
/** A command on one request: any caller who sees the project; who may do what is checked on the request. */
const onRequest = { project, id };

/**
 * Adds changes to the caller's draft for the environment, creating it (change-request-created,
 * change-added). A change to what the draft already changes replaces it. `changes` is one change
 * or a list, parsed as sent so errors name the property; each needs its direct route's permission.
 */
export const addChangeRequestChanges = defineOperation({
  id: 'changeRequests.addChanges',
  summary: "Add one change or a list to the caller's draft for the environment (creating it)",
  kind: 'write',
  permission: 'NONE',
  scope: ({ project, environment }) => ({ project, environment }),
  input: z.object({ project, environment: z.string(), changes: z.unknown() }),
  output: changeRequestViewSchema,
  guard: async ({ project, environment, changes }, { deps, caller }) => {
    const inputs = parseChanges(changes);
    await requireProjectEnvironment(deps.store, project, environment);
    const setting = await changeRequestSettingOf(deps.store, project, environment);
    if (!setting.enabled)
      throw new FlagstaffError(
        'CONFLICT',
        `Change requests are not enabled in the "${environment}" environment of project "${project}"; change it directly.`,
      );
    await requireChangePermissions(deps, caller, { project, environment }, inputs);
  },
  run: async ({ project, environment, changes: input }, { deps, repos, actor, caller }) => {
    const setting = await changeRequestSettingOf(repos, project, environment);
    const prepared: Omit<StoredChange, 'id' | 'createdAt'>[] = [];
    for (const change of parseChanges(input))
      prepared.push(await prepareChange(repos, caller, project, environment, change));
    const me = userOf(caller);
    const at = nowIso(deps);
    const drafts = await repos.changeRequests.list({ project, environment, states: ['Draft'] });
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
      const newId = await repos.changeRequests.insert(fresh);
      draft = { ...fresh, id: newId, title: `Change request #${newId}` };
      events.push('change-request-created');
    }
    let nextChanges = draft.changes;
    let nextId = Math.max(0, ...nextChanges.map((c) => c.id)) + 1;
    for (const change of prepared) {
      nextChanges = [
        ...nextChanges.filter((c) => !sameTarget(c, change)),
        { ...change, id: nextId++, createdAt: at },
      ];
      events.push('change-added');
    }
    const next = { ...draft, changes: nextChanges, updatedAt: at };
    await repos.changeRequests.update(next);
    await writeEvents(repos, actor, at, requestEvents(next, events));
    return viewOf(repos, next);
  },
});

/** Replaces one change (change-edited); records the state now, which resolves a conflict. */
export const editChangeRequestChange = defineOperation({
  id: 'changeRequests.editChange',
  summary: 'Replace one change (resolves its conflict)',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: changeInputSchema.extend({ ...onRequest, changeId: z.number() }),
  output: changeRequestViewSchema,
  guard: async (input, { deps, caller }) => {
    const record = await requestFor(deps.store, caller, input, 'edit its changes');
    await requireChangePermissions(
      deps,
      caller,
      { project: input.project, environment: record.environment },
      [input],
    );
  },
  run: async (input, { deps, repos, actor, caller }) => {
    const { project, id: _id, changeId, ...body } = input;
    const record = await requestFor(repos, caller, input, 'edit its changes');
    const existing = record.changes.find((c) => c.id === changeId);
    if (!existing) throw notFound('change', String(changeId));
    const prepared = await prepareChange(repos, caller, project, record.environment, {
      ...body,
      feature: body.feature ?? existing.feature,
    });
    const at = nowIso(deps);
    const changes = record.changes.map((c) =>
      c.id === changeId ? { ...prepared, id: c.id, createdAt: at } : c,
    );
    const next = { ...afterEdit(record, at), changes };
    await save(repos, actor, record, next, ['change-edited']);
    return viewOf(repos, next);
  },
});

/** Removes one change (change-discarded); a draft left empty is discarded too. */
export const discardChangeRequestChange = defineOperation({
  id: 'changeRequests.discardChange',
  summary: 'Discard one change',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: z.object({ ...onRequest, changeId: z.number() }),
  output: z.null(),
  run: async (input, { deps, repos, actor, caller }) => {
    const record = await requestFor(repos, caller, input, 'discard its changes');
    if (!record.changes.some((c) => c.id === input.changeId))
      throw notFound('change', String(input.changeId));
    const at = nowIso(deps);
    const changes = record.changes.filter((c) => c.id !== input.changeId);
    if (changes.length === 0 && record.state === 'Draft') {
      await save(repos, actor, record, { ...record, changes, updatedAt: at }, [
        'change-discarded',
        'change-request-discarded',
      ]);
      await repos.changeRequests.delete(record.id);
    } else await save(repos, actor, record, { ...afterEdit(record, at), changes }, ['change-discarded']);
    return null;
  },
});

/** Deletes a draft (change-request-discarded). */
export const discardChangeRequestDraft = defineOperation({
  id: 'changeRequests.discardDraft',
  summary: 'Discard a draft',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: z.object(onRequest),
  output: z.null(),
  run: async (input, { deps, repos, actor, caller }) => {
    const record = await requestFor(repos, caller, input, 'discard it');
    if (record.state !== 'Draft')
      throw new FlagstaffError(
        'CONFLICT',
        `Only drafts are discarded; cancel a change request in state "${record.state}".`,
      );
    await save(repos, actor, record, { ...record, updatedAt: nowIso(deps) }, ['change-request-discarded']);
    await repos.changeRequests.delete(record.id);
    return null;
  },
});

/** Renames a request (its author). */
export const updateChangeRequestTitle = defineOperation({
  id: 'changeRequests.updateTitle',
  summary: 'Rename a change request',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: titleInputSchema.extend(onRequest),
  output: z.null(),
  run: async (input, { deps, repos, actor, caller }) => {
    const record = await requestFor(repos, caller, input, 'change its title');
    if (['Applied', 'Cancelled', 'Rejected'].includes(record.state))
      throw new FlagstaffError(
        'CONFLICT',
        `A change request in state "${record.state}" can no longer be changed.`,
      );
    await save(repos, actor, record, { ...record, title: input.title, updatedAt: nowIso(deps) }, []);
    return null;
  },
});

/** Comments on a request (anyone who sees the project). */
export const addChangeRequestComment = defineOperation({
  id: 'changeRequests.addComment',
  summary: 'Comment on a change request',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: commentInputSchema.extend(onRequest),
  output: z.null(),
  run: async (input, { deps, repos, actor, caller }) => {
    const record = await requireRequest(repos, input.project, input.id);
    const at = nowIso(deps);
    const comment = {
      id: Math.max(0, ...record.comments.map((c) => c.id)) + 1,
      text: input.text,
      user: userOf(caller),
      createdAt: at,
    };
    const next: ChangeRequestRecord = { ...record, comments: [...record.comments, comment], updatedAt: at };
    await save(repos, actor, record, next, []);
    return null;
  },
});

/** Sets the users asked to review (the author's choice; each must exist). */
export const setChangeRequestReviewers = defineOperation({
  id: 'changeRequests.setReviewers',
  summary: 'Ask users to review a change request',
  kind: 'write',
  permission: 'NONE',
  scope: inProject,
  input: reviewersInputSchema.extend(onRequest),
  output: z.null(),
  run: async (input, { deps, repos, actor, caller }) => {
    const record = await requestFor(repos, caller, input, 'choose its reviewers');
    for (const [i, userId] of input.reviewers.entries())
      if (!(await repos.users.get(userId)))
        throw new FlagstaffError('VALIDATION', `"reviewers[${i}]" ${userId} is no user.`, {
          path: `reviewers[${i}]`,
        });
    await save(
      repos,
      actor,
      record,
      { ...record, reviewers: [...new Set(input.reviewers)], updatedAt: nowIso(deps) },
      [],
    );
    return null;
  },
});
