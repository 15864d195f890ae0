import { z } from 'zod';
import type { Lifecycle, LifecycleStage } from '../../domain/feature.js';
import {
  completeProjectFeatureSchema,
  featurePathSchema,
  type LifecycleStageView,
  lifecycleCountSchema,
  lifecycleStageViewSchema,
} from '../../domain/feature-view.js';
import { defineOperation, type OperationContext } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { featureProjectScope } from './feature-read-operations.js';
import { requireFeature, requireFeatureWithTags } from './require-feature.js';

const countKey = {
  initial: 'initial',
  'pre-live': 'preLive',
  live: 'live',
  completed: 'completed',
  archived: 'archived',
} as const satisfies Record<LifecycleStage, keyof z.output<typeof lifecycleCountSchema>>;

/** Moves the feature to its next stage and says so (feature-completed / feature-uncompleted). */
async function setLifecycle(
  { repos, actor }: OperationContext<'write'>,
  project: string,
  name: string,
  next: (current: Lifecycle) => Lifecycle & { status?: string; statusValue?: string },
  type: 'feature-completed' | 'feature-uncompleted',
): Promise<void> {
  const { feature, tags } = await requireFeatureWithTags(repos, project, name);
  const { status, statusValue, ...lifecycle } = next(feature.lifecycle);
  await repos.features.update({ ...feature, lifecycle });
  await writeFeatureEvents(repos, actor, lifecycle.enteredStageAt, { feature, tags }, [
    { type, data: { ...lifecycle, ...(status ? { status } : {}), ...(statusValue ? { statusValue } : {}) } },
  ]);
}

/** The feature's lifecycle stages so far: its creation, then the current one. */
export const getFeatureLifecycle = defineOperation({
  id: 'features.lifecycle',
  summary: "A feature's lifecycle stages",
  kind: 'read',
  permission: 'NONE',
  scope: featureProjectScope,
  input: featurePathSchema,
  output: z.array(lifecycleStageViewSchema),
  run: async ({ project, feature }, { repos }) => {
    const record = await requireFeature(repos, project, feature);
    const stages: LifecycleStageView[] = [];
    if (record.lifecycle.stage !== 'initial' && record.createdAt)
      stages.push({ stage: 'initial', enteredStageAt: record.createdAt });
    stages.push({ ...record.lifecycle });
    return stages;
  },
});

/** The feature's work is done, kept or discarded (feature-completed). */
export const completeFeature = defineOperation({
  id: 'features.complete',
  summary: "Mark a feature's work complete (kept or discarded)",
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureProjectScope,
  input: completeProjectFeatureSchema,
  output: z.void(),
  run: ({ project, feature, status, statusValue }, ctx) =>
    setLifecycle(
      ctx,
      project,
      feature,
      () => ({
        stage: 'completed',
        enteredStageAt: nowIso(ctx.deps),
        status,
        ...(statusValue ? { statusValue } : {}),
      }),
      'feature-completed',
    ),
});

/** A completed feature goes back to live (feature-uncompleted). */
export const uncompleteFeature = defineOperation({
  id: 'features.uncomplete',
  summary: 'Take a completed feature back to live',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureProjectScope,
  input: featurePathSchema,
  output: z.void(),
  run: ({ project, feature }, ctx) =>
    setLifecycle(
      ctx,
      project,
      feature,
      (current) =>
        current.stage === 'completed' ? { stage: 'live', enteredStageAt: nowIso(ctx.deps) } : current,
      'feature-uncompleted',
    ),
});

/** Features per lifecycle stage (archived included) across the projects the caller may see. */
export const countFeatureLifecycles = defineOperation({
  id: 'features.lifecycleCount',
  summary: 'How many features are in each lifecycle stage',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: lifecycleCountSchema,
  run: async (_input, { deps, repos, caller }) => {
    const hidden = new Set(await deps.policy.hiddenProjects(caller));
    const counts = { initial: 0, preLive: 0, live: 0, completed: 0, archived: 0 };
    for (const f of await repos.features.list()) {
      if (hidden.has(f.project)) continue;
      counts[countKey[f.archivedAt ? 'archived' : f.lifecycle.stage]]++;
    }
    return counts;
  },
});

/** Every lifecycle operation, for route tables and tools. */
export const featureLifecycleOperations = [
  getFeatureLifecycle,
  completeFeature,
  uncompleteFeature,
  countFeatureLifecycles,
] as const;
