import type { z } from 'zod';
import { parseWith } from '../../domain/parse.js';
import {
  type FeatureStrategy,
  type patchDocumentSchema,
  type StrategyConfig,
  strategyConfigSchema,
  type strategyOrderSchema,
} from '../../domain/strategy.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { FeatureWithTags } from '../../ports/command-read-ports.js';
import type { NewStrategy } from '../../ports/feature-ports.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeatureIn } from './require-feature.js';
import { prepareStrategyConfig } from './strategy-rules.js';

type StrategyOrder = z.infer<typeof strategyOrderSchema>;
type PatchOperations = z.infer<typeof patchDocumentSchema>;

/** Where a strategy lives: project, feature, environment. */
export interface StrategyLocation {
  project: string;
  feature: string;
  environment: string;
}

/** The feature with its tags (its events carry them), after checking the environment is the project's. */
const locate = (tx: ReadRepositories, at: StrategyLocation) =>
  requireFeatureIn(tx, at.project, at.feature, at.environment);

export async function requireStrategy(
  tx: ReadRepositories,
  at: StrategyLocation,
  id: string,
): Promise<FeatureStrategy> {
  const s = await tx.strategies.get(id);
  if (!s || s.featureName !== at.feature || s.environment !== at.environment) throw notFound('strategy', id);
  return s;
}

const configOf = (s: FeatureStrategy): StrategyConfig => ({
  name: s.name,
  title: s.title,
  disabled: s.disabled,
  sortOrder: s.sortOrder,
  constraints: s.constraints,
  variants: s.variants,
  parameters: s.parameters,
  segments: s.segments,
});

/** Adding a prepared strategy: to which feature (with its tags, for the event), in which environment. */
export interface StrategyAddition {
  subject: FeatureWithTags;
  environment: string;
  config: StrategyConfig;
}

/** Adds a prepared strategy to a feature environment and writes feature-strategy-add. */
export async function insertStrategy(
  deps: ServiceDeps,
  tx: Repositories,
  actor: Actor,
  { subject, environment, config }: StrategyAddition,
): Promise<FeatureStrategy> {
  const at = nowIso(deps);
  const { feature } = subject;
  const draft: NewStrategy = {
    id: deps.ids.uuid(),
    name: config.name,
    title: config.title ?? null,
    disabled: config.disabled ?? false,
    featureName: feature.name,
    projectId: feature.project,
    environment,
    // Without a sortOrder it goes last, placed by the store.
    sortOrder: config.sortOrder,
    segments: config.segments,
    constraints: config.constraints,
    variants: config.variants,
    parameters: config.parameters,
    createdAt: at,
  };
  const strategy: FeatureStrategy = { ...draft, sortOrder: await tx.strategies.insert(draft) };
  await writeFeatureEvents(tx, actor, at, subject, [
    { type: 'feature-strategy-add', environment, data: strategy },
  ]);
  return strategy;
}

/**
 * The strategy commands inside a caller's transaction, after the policy was asked: the direct routes
 * and applying a change request run these same functions (same checks, same events).
 */
export function createStrategyCommands(deps: ServiceDeps) {
  async function replace(
    tx: Repositories,
    actor: Actor,
    at: StrategyLocation,
    before: FeatureStrategy,
    config: StrategyConfig,
  ) {
    const { feature, tags } = await locate(tx, at);
    const prepared = await prepareStrategyConfig(tx, at.feature, config);
    const after: FeatureStrategy = {
      ...before,
      name: prepared.name,
      title: prepared.title === undefined ? before.title : prepared.title,
      disabled: prepared.disabled ?? false,
      sortOrder: prepared.sortOrder ?? before.sortOrder,
      constraints: prepared.constraints,
      variants: prepared.variants,
      parameters: prepared.parameters,
      segments: prepared.segments,
    };
    await tx.strategies.update(after);
    await writeFeatureEvents(tx, actor, nowIso(deps), { feature, tags }, [
      { type: 'feature-strategy-update', environment: at.environment, data: after, preData: before },
    ]);
    return after;
  }

  return {
    async add(tx: Repositories, actor: Actor, at: StrategyLocation, config: StrategyConfig) {
      const { feature, tags } = await locate(tx, at);
      return insertStrategy(deps, tx, actor, {
        subject: { feature, tags },
        environment: at.environment,
        config: await prepareStrategyConfig(tx, at.feature, config),
      });
    },

    async update(tx: Repositories, actor: Actor, at: StrategyLocation, id: string, config: StrategyConfig) {
      return replace(tx, actor, at, await requireStrategy(tx, at, id), config);
    },

    async patch(tx: Repositories, actor: Actor, at: StrategyLocation, id: string, ops: PatchOperations) {
      const before = await requireStrategy(tx, at, id);
      const patched = applyJsonPatch(configOf(before), ops, [
        'name',
        'title',
        'disabled',
        'sortOrder',
        'constraints',
        'variants',
        'parameters',
        'segments',
      ]);
      return replace(tx, actor, at, before, parseWith(strategyConfigSchema, patched));
    },

    async remove(tx: Repositories, actor: Actor, at: StrategyLocation, id: string) {
      const { feature, tags } = await locate(tx, at);
      const before = await requireStrategy(tx, at, id);
      await tx.strategies.delete(id);
      await writeFeatureEvents(tx, actor, nowIso(deps), { feature, tags }, [
        { type: 'feature-strategy-remove', environment: at.environment, preData: before },
      ]);
    },

    async reorder(tx: Repositories, actor: Actor, at: StrategyLocation, order: StrategyOrder) {
      const { feature, tags } = await locate(tx, at);
      const before = await tx.strategies.list({ featureName: at.feature, environment: at.environment });
      const byId = new Map(before.map((s) => [s.id, s]));
      for (const [i, item] of order.entries()) {
        const s = byId.get(item.id);
        if (!s)
          throw new FlagstaffError(
            'VALIDATION',
            `"[${i}].id" "${item.id}" is not a strategy of "${at.feature}" in "${at.environment}".`,
            { path: `[${i}].id` },
          );
        if (s.sortOrder !== item.sortOrder) await tx.strategies.update({ ...s, sortOrder: item.sortOrder });
      }
      await writeFeatureEvents(tx, actor, nowIso(deps), { feature, tags }, [
        {
          type: 'strategy-order-changed',
          environment: at.environment,
          data: order.map((o) => ({ id: o.id, sortOrder: o.sortOrder })),
          preData: before.map((s) => ({ id: s.id, sortOrder: s.sortOrder })),
        },
      ]);
    },
  };
}

export type StrategyCommands = ReturnType<typeof createStrategyCommands>;
