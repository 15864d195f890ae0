import { z } from 'zod';
import { strategySegmentListSchema, strategySegmentsSchema } from '../../domain/strategy-segments.js';
import { notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { createStrategyCommands } from '../features/strategy-commands.js';

/**
 * The segments a strategy uses. Its project is the scope, found by reading the strategy: one of a
 * private project the caller may not see is not found.
 */
export const listStrategySegments = defineOperation({
  id: 'segments.ofStrategy',
  summary: 'The segments a strategy uses',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ strategyId: z.string() }),
  output: strategySegmentListSchema,
  guard: async ({ strategyId }, { deps, caller }) => {
    const strategy = await deps.store.strategies.get(strategyId);
    if (strategy) await deps.policy.require(caller, 'NONE', { project: strategy.projectId });
  },
  run: async ({ strategyId }, { repos }) => {
    const strategy = await repos.strategies.get(strategyId);
    if (!strategy) throw notFound('strategy', strategyId);
    const segments = await repos.segments.list();
    return { segments: segments.filter((s) => strategy.segments.includes(s.id)) };
  },
});

/** Replaces the segments of one strategy of the project and environment named (feature-strategy-update). */
export const setStrategySegments = defineOperation({
  id: 'segments.setForStrategy',
  summary: 'Replace the segments of a strategy',
  kind: 'write',
  permission: 'UPDATE_FEATURE_STRATEGY',
  scope: (input) => ({ project: input.projectId, environment: input.environmentId }),
  input: strategySegmentsSchema,
  output: z.void(),
  run: async (body, { deps, repos, actor }) => {
    const strategy = await repos.strategies.get(body.strategyId);
    if (!strategy || strategy.projectId !== body.projectId || strategy.environment !== body.environmentId)
      throw notFound('strategy', body.strategyId);
    const at = { project: body.projectId, feature: strategy.featureName, environment: body.environmentId };
    await createStrategyCommands(deps).patch(repos, actor, at, strategy.id, [
      { op: 'replace', path: '/segments', value: body.segmentIds },
    ]);
  },
});
