import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { changeRequestSettingOf } from '../../auth/change-request-guard.js';
import { type ChangeInput, changeInputSchema, revertResultSchema } from '../../domain/change-request.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import type { FeatureRecord } from '../../domain/feature.js';
import type { FeatureStrategy } from '../../domain/strategy.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { updateFeature } from '../features/feature-operations.js';
import { ACTION_PERMISSION, createChangeRunner, parsePayload } from './change-actions.js';
import { addChangeRequestChanges } from './change-request-commands.js';
import type { ChangeRequestView } from './change-request-view.js';

/** What a revert did: applied at once, or added to the caller's change request. */
export type RevertResult =
  | { applied: true; change: RevertChange }
  | { applied: false; change: RevertChange; changeRequest: ChangeRequestView };

/** The inverse change: a change request's action, or `updateMetadata` for a feature's metadata. */
export interface RevertChange {
  feature?: string | null | undefined;
  action: ChangeInput['action'] | 'updateMetadata';
  payload?: unknown;
}

const ambiguous = (why: string): FlagstaffError =>
  new FlagstaffError('CONFLICT', `This event cannot be reverted safely: ${why} Change it by hand instead.`);

/** A strategy's configuration as a change's payload, without what the store assigns. */
const configOf = (s: FeatureStrategy) => ({
  name: s.name,
  title: s.title,
  disabled: s.disabled,
  constraints: s.constraints,
  parameters: s.parameters,
  variants: s.variants,
  segments: s.segments,
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The feature event `id` names, when it is one (of a project, on a feature); null otherwise. */
async function featureEventOf(repos: ReadRepositories, id: number): Promise<FlagstaffEvent | null> {
  const [event] = Number.isInteger(id) ? await repos.events.search({ maxId: id, limit: 1 }) : [];
  return event && event.id === id && event.project !== null && event.featureName ? event : null;
}

/** The inverse change of an event in its environment, checked against the state now. */
async function inverseOf(store: ReadRepositories, event: FlagstaffEvent): Promise<ChangeInput> {
  const feature = event.featureName ?? '';
  const env = event.environment ?? '';
  switch (event.type) {
    case 'feature-environment-enabled':
    case 'feature-environment-disabled': {
      const was = event.type === 'feature-environment-enabled';
      const now = (await store.featureEnvironments.get(feature, env))?.enabled ?? false;
      if (now !== was) throw ambiguous(`"${feature}" was switched ${was ? 'off' : 'on'} again since.`);
      return { feature, action: 'updateEnabled', payload: { enabled: !was } };
    }
    case 'feature-strategy-add': {
      const added = event.data as FeatureStrategy;
      const now = await store.strategies.get(added.id);
      if (!now) throw ambiguous('the strategy it added is gone already.');
      if (!same(configOf(now), configOf(added))) throw ambiguous('the strategy it added was changed since.');
      return { feature, action: 'deleteStrategy', payload: { id: added.id } };
    }
    case 'feature-strategy-update': {
      const after = event.data as FeatureStrategy;
      const before = event.preData as FeatureStrategy;
      const now = await store.strategies.get(after.id);
      if (!now) throw ambiguous('the strategy was deleted since.');
      if (!same(configOf(now), configOf(after))) throw ambiguous('the strategy was changed again since.');
      return { feature, action: 'updateStrategy', payload: { id: after.id, ...configOf(before) } };
    }
    case 'feature-strategy-remove': {
      const removed = event.preData as FeatureStrategy;
      return { feature, action: 'addStrategy', payload: configOf(removed) };
    }
    case 'strategy-order-changed': {
      const after = event.data as { id: string; sortOrder: number }[];
      const before = event.preData as { id: string; sortOrder: number }[];
      const now = await store.strategies.list({ featureName: feature, environment: env });
      const order = (list: { id: string; sortOrder: number }[]) =>
        [...list].sort((a, b) => a.id.localeCompare(b.id)).map((s) => [s.id, s.sortOrder]);
      if (!same(order(now), order(after)))
        throw ambiguous('the strategies were reordered, added or removed since.');
      return { feature, action: 'reorderStrategy', payload: before };
    }
    case 'feature-environment-variants-updated': {
      const { variants } = event.data as { variants: unknown[] };
      const now = (await store.featureEnvironments.get(feature, env))?.variants ?? [];
      if (!same(now, variants)) throw ambiguous('the variants were changed again since.');
      return {
        feature,
        action: 'patchVariant',
        payload: { variants: (event.preData as { variants: unknown[] }).variants },
      };
    }
    case 'feature-dependency-added': {
      const { feature: parent } = event.data as { feature: string };
      if (!(await store.dependencies.list([feature])).some((d) => d.feature === parent))
        throw ambiguous(`the dependency on "${parent}" is gone already.`);
      return { feature, action: 'deleteDependency', payload: { feature: parent } };
    }
    case 'feature-dependency-removed': {
      const { feature: parent } = event.data as { feature: string };
      if ((await store.dependencies.list([feature])).some((d) => d.feature === parent))
        throw ambiguous(`"${feature}" depends on "${parent}" again already.`);
      return { feature, action: 'addDependency', payload: { feature: parent } };
    }
    default:
      throw new FlagstaffError(
        'VALIDATION',
        `Events of type "${event.type}" cannot be reverted; reverts cover switching, strategies, their order, variants, dependencies and metadata.`,
        { path: 'id' },
      );
  }
}

/** Metadata (description, type, impression data) is never behind change requests: set back directly. */
async function revertMetadata(
  store: ReadRepositories,
  runner: OperationRunner,
  caller: Caller,
  event: FlagstaffEvent,
): Promise<RevertResult> {
  const after = event.data as FeatureRecord;
  const before = event.preData as FeatureRecord;
  const project = event.project ?? '';
  const now = await store.features.get(after.name);
  const fields = (f: FeatureRecord) => ({
    description: f.description,
    type: f.type,
    impressionData: f.impressionData,
  });
  if (!now || now.project !== project) throw notFound('feature', after.name);
  if (!same(fields(now), fields(after))) throw ambiguous('the feature was changed again since.');
  const change = { feature: after.name, action: 'updateMetadata' as const, payload: fields(before) };
  await runner.unknown(updateFeature, caller, {
    ...fields(before),
    projectId: project,
    featureName: after.name,
  });
  return { applied: true, change };
}

/**
 * A revert's inverse change, applied directly where the environment does not require change
 * requests: it needs the permission of the change's direct route, as the direct route would.
 */
export const applyRevertChange = defineOperation({
  id: 'changeRequests.applyRevertChange',
  summary: "Apply a revert's inverse change directly",
  kind: 'write',
  permission: ({ change }) => (change ? ACTION_PERMISSION[change.action] : 'ADMIN'),
  scope: ({ project, environment }) => ({ project, environment }),
  input: z.object({ project: z.string(), environment: z.string(), change: changeInputSchema }),
  output: z.null(),
  run: async ({ project, environment, change }, { deps, repos, caller, actor }) => {
    await createChangeRunner(deps)(
      repos,
      caller,
      actor,
      { project, environment },
      {
        id: 0,
        feature: change.feature ?? null,
        action: change.action,
        payload: parsePayload(change),
        base: null,
        createdBy: { id: actor.userId, username: actor.name },
        createdAt: '',
      },
    );
    return null;
  },
});

/**
 * POST /api/admin/events/:id/revert: the inverse of a feature event, computed against the state
 * now, and refused (CONFLICT) when later changes make it ambiguous — the event's result is no
 * longer what is there. The inverse runs through the direct routes' commands, or, where the
 * environment requires change requests, goes into the caller's draft. Events of a project the
 * caller may not see do not exist for it (the scope is the event's project).
 *
 * A command: it reads the event and the state now, then runs one other operation, which the
 * runner judges with its own permission (the direct route's, or a change request's) and transacts.
 */
export const revertEvent = defineOperation({
  id: 'changeRequests.revert',
  summary:
    'Revert a feature event: its inverse against the state now, applied directly or added to a change request where one is required',
  kind: 'command',
  permission: 'NONE',
  scope: async ({ id }, { repos }) => ({
    project: id === undefined ? undefined : ((await featureEventOf(repos, id))?.project ?? undefined),
  }),
  input: z.object({ id: z.number() }),
  output: revertResultSchema,
  run: async ({ id }, { repos, caller, runner }): Promise<RevertResult> => {
    const event = await featureEventOf(repos, id);
    if (!event) throw notFound('event', String(id));
    if (event.type === 'feature-metadata-updated') return revertMetadata(repos, runner, caller, event);
    const project = event.project ?? '';
    const environment = event.environment ?? '';
    const change = await inverseOf(repos, event);
    if ((await changeRequestSettingOf(repos, project, environment)).enabled) {
      const changeRequest = await runner(addChangeRequestChanges, caller, {
        project,
        environment,
        changes: change,
      });
      return { applied: false, change, changeRequest };
    }
    await runner(applyRevertChange, caller, { project, environment, change });
    return { applied: true, change };
  },
});

/** Revert for in-process callers: a typed wrapper over `revertEvent`. */
export function createRevertService(run: OperationRunner) {
  return {
    /** POST /api/admin/events/:id/revert. */
    revert: (caller: Caller, id: number): Promise<RevertResult> => run(revertEvent, caller, { id }),
  };
}

export type RevertService = ReturnType<typeof createRevertService>;
