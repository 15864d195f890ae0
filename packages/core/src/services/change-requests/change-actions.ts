import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { Permission } from '../../auth/permissions.js';
import type { ChangeAction, ChangeInput, StoredChange } from '../../domain/change-request.js';
import { dependencyInputSchema } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import { segmentInputSchema } from '../../domain/segment.js';
import { type FeatureStrategy, strategyConfigSchema } from '../../domain/strategy.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import type { Actor, ServiceDeps } from '../deps.js';
import { createDependencyCommands } from '../features/dependency-operations.js';
import { archiveFeatures } from '../features/feature-archive.js';
import {
  createFeatureEnvironmentCommands,
  prepareVariants,
} from '../features/feature-environment-service.js';
import { requireFeatureIn } from '../features/require-feature.js';
import { createStrategyCommands, strategyOrderSchema } from '../features/strategy-service.js';
import { updateSegment } from '../projects/segment-service.js';

/** Where a request's changes act. */
export interface RequestScope {
  project: string;
  environment: string;
}

const enabledSchema = z.object({ enabled: z.boolean({ message: 'must be true or false' }) });
const withStrategyId = z.object({ id: z.string().min(1, 'must name the strategy') });
const variantsPayloadSchema = z.object({ variants: z.array(z.unknown()) });
const deleteDependencySchema = z
  .object({ feature: z.string().min(1) })
  .partial()
  .optional();
const segmentPayloadSchema = segmentInputSchema.extend({ id: z.number().int().positive() });

/** The permission each action needs: the one its direct route needs. */
export const ACTION_PERMISSION: Readonly<Record<ChangeAction, Permission>> = {
  updateEnabled: 'UPDATE_FEATURE_ENVIRONMENT',
  addStrategy: 'CREATE_FEATURE_STRATEGY',
  updateStrategy: 'UPDATE_FEATURE_STRATEGY',
  deleteStrategy: 'DELETE_FEATURE_STRATEGY',
  reorderStrategy: 'UPDATE_FEATURE_STRATEGY',
  patchVariant: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  archiveFeature: 'DELETE_FEATURE',
  addDependency: 'UPDATE_FEATURE_DEPENDENCY',
  deleteDependency: 'UPDATE_FEATURE_DEPENDENCY',
  updateSegment: 'UPDATE_SEGMENT',
};

/** What a strategy change compares: its configuration, without bookkeeping. */
const strategyState = (s: FeatureStrategy) => ({
  id: s.id,
  name: s.name,
  title: s.title,
  disabled: s.disabled,
  constraints: s.constraints,
  parameters: s.parameters,
  variants: s.variants,
  segments: s.segments,
});

/** Checks a change's payload with the schema of the matching direct route; returns it normalized. */
export function parsePayload(change: ChangeInput): unknown {
  const { action, payload } = change;
  const path = 'payload';
  switch (action) {
    case 'updateEnabled':
      return parseWith(enabledSchema, payload, path);
    case 'addStrategy':
      return parseWith(strategyConfigSchema, payload, path);
    case 'updateStrategy':
      return {
        ...parseWith(strategyConfigSchema, payload, path),
        ...parseWith(withStrategyId, payload, path),
      };
    case 'deleteStrategy':
      return parseWith(withStrategyId, payload, path);
    case 'reorderStrategy':
      return parseWith(strategyOrderSchema, payload, path);
    case 'patchVariant':
      return {
        variants: prepareVariants(
          parseWith(variantsPayloadSchema, payload, path).variants,
          'payload.variants',
        ),
      };
    case 'archiveFeature':
      return null;
    case 'addDependency':
      return parseWith(dependencyInputSchema, payload, path);
    case 'deleteDependency':
      return parseWith(deleteDependencySchema, payload, path) ?? null;
    case 'updateSegment':
      return parseWith(segmentPayloadSchema, payload, path);
  }
}

const strategyIdOf = (payload: unknown): string => (payload as { id: string }).id;

/**
 * The state a change acts on, as it is now: what a change records when drafted and what conflict
 * detection compares it with. NOT_FOUND when the target does not exist (a draft must name one).
 */
export async function currentStateOf(
  repos: ReadRepositories,
  scope: RequestScope,
  change: { feature: string | null; action: ChangeAction; payload: unknown },
): Promise<unknown> {
  if (change.action === 'updateSegment') {
    const { id } = change.payload as { id: number };
    const segment = await repos.segments.get(id);
    if (!segment) throw notFound('segment', String(id));
    return {
      name: segment.name,
      description: segment.description,
      project: segment.project,
      constraints: segment.constraints,
    };
  }
  if (!change.feature) throw invalid('feature', `must name a feature for "${change.action}".`);
  const { feature } = await requireFeatureIn(repos, scope.project, change.feature, scope.environment);
  const strategies = () =>
    repos.strategies.list({ featureName: feature.name, environment: scope.environment });
  switch (change.action) {
    case 'updateEnabled':
      return {
        enabled: (await repos.featureEnvironments.get(feature.name, scope.environment))?.enabled ?? false,
      };
    case 'updateStrategy':
    case 'deleteStrategy': {
      const id = strategyIdOf(change.payload);
      const found = await repos.strategies.get(id);
      if (!found || found.featureName !== feature.name || found.environment !== scope.environment)
        return null;
      return strategyState(found);
    }
    case 'reorderStrategy':
      return (await strategies()).map((s) => s.id).sort();
    case 'patchVariant':
      return {
        variants: (await repos.featureEnvironments.get(feature.name, scope.environment))?.variants ?? [],
      };
    case 'archiveFeature':
      return { archived: feature.archivedAt !== null };
    case 'addDependency':
    case 'deleteDependency':
      return (await repos.dependencies.list([feature.name])).map((d) => d.feature).sort();
    case 'addStrategy':
      return null;
  }
}

/** Actions whose result depends on the state they were drafted against. */
const STATEFUL: ReadonlySet<ChangeAction> = new Set([
  'updateStrategy',
  'deleteStrategy',
  'reorderStrategy',
  'patchVariant',
  'archiveFeature',
  'updateSegment',
]);

/**
 * Why a change no longer applies as drafted, or null: its target changed (or went) since. The
 * author resolves it by editing the change, which records the state then.
 */
export async function conflictOf(
  repos: ReadRepositories,
  scope: RequestScope,
  change: StoredChange,
): Promise<{ message: string; now: unknown } | null> {
  let now: unknown;
  try {
    now = await currentStateOf(repos, scope, change);
  } catch (error) {
    if (error instanceof FlagstaffError && error.code === 'NOT_FOUND')
      return { message: error.message, now: null };
    throw error;
  }
  if (!STATEFUL.has(change.action)) return null;
  if ((change.action === 'updateStrategy' || change.action === 'deleteStrategy') && now === null)
    return {
      message: `The strategy "${strategyIdOf(change.payload)}" was deleted after this change was drafted.`,
      now,
    };
  if (JSON.stringify(now) === JSON.stringify(change.base)) return null;
  const what =
    change.action === 'updateSegment'
      ? 'The segment'
      : change.action === 'patchVariant'
        ? `The variants of "${change.feature}"`
        : change.action === 'archiveFeature'
          ? `"${change.feature}"`
          : change.action === 'reorderStrategy'
            ? `The strategies of "${change.feature}"`
            : 'The strategy';
  return { message: `${what} changed after this change was drafted: update the change to apply it.`, now };
}

/**
 * Runs one change inside the apply transaction through the commands the direct routes run (same
 * checks, same events), as `actor`; `caller` is who applies (dependencies check what it may see).
 */
export function createChangeRunner(deps: ServiceDeps) {
  const strategies = createStrategyCommands(deps);
  const switches = createFeatureEnvironmentCommands(deps);
  const dependencies = createDependencyCommands(deps);
  return async (
    tx: Repositories,
    caller: Caller,
    actor: Actor,
    scope: RequestScope,
    change: StoredChange,
  ) => {
    const payload = parsePayload(change);
    const { project, environment } = scope;
    const feature = change.feature ?? '';
    const at = { project, environment, feature };
    switch (change.action) {
      case 'updateEnabled':
        return switches.setEnabled(
          tx,
          actor,
          project,
          feature,
          environment,
          (payload as { enabled: boolean }).enabled,
        );
      case 'addStrategy':
        return strategies.add(tx, actor, at, parseWith(strategyConfigSchema, payload));
      case 'updateStrategy':
        return strategies.update(
          tx,
          actor,
          at,
          strategyIdOf(payload),
          parseWith(strategyConfigSchema, payload),
        );
      case 'deleteStrategy':
        return strategies.remove(tx, actor, at, strategyIdOf(payload));
      case 'reorderStrategy':
        return strategies.reorder(tx, actor, at, parseWith(strategyOrderSchema, payload));
      case 'patchVariant': {
        const { feature: record, tags } = await requireFeatureIn(tx, project, feature, environment);
        const { variants } = payload as { variants: ReturnType<typeof prepareVariants> };
        return switches.saveVariants(
          tx,
          actor,
          { feature: record, tags },
          environment,
          variants,
          deps.clock.now().toISOString(),
        );
      }
      case 'archiveFeature':
        return archiveFeatures(deps, tx, actor, project, [feature]);
      case 'addDependency':
        return dependencies.add(
          tx,
          caller,
          actor,
          project,
          feature,
          parseWith(dependencyInputSchema, payload),
        );
      case 'deleteDependency': {
        const parent = (payload as { feature?: string } | null)?.feature;
        const parents = parent ? [parent] : (await tx.dependencies.list([feature])).map((d) => d.feature);
        for (const p of parents) await dependencies.remove(tx, actor, project, feature, p);
        return;
      }
      case 'updateSegment': {
        const { id, ...body } = parseWith(segmentPayloadSchema, payload);
        return updateSegment(deps, tx, actor, id, body);
      }
    }
  };
}
