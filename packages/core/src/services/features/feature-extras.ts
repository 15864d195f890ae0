import { RE2JS } from 're2js';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { constraintSchema, MULTI_VALUE_OPERATORS } from '../../domain/constraint.js';
import type { FeatureEnvironmentView, FeatureView, Lifecycle, LifecycleStage } from '../../domain/feature.js';
import { LIFECYCLE_STAGES } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import { invalid, notFound } from '../../errors.js';
import { createOperationRunner } from '../../operations/run-operation.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { joined } from '../joined-store.js';
import { createDependencyService } from './dependency-service.js';
import { createFeatureEnvironmentService } from './feature-environment-service.js';
import type { FeatureService } from './feature-service.js';
import { createFeatureService } from './feature-service.js';
import { requireFeatureWithTags } from './require-feature.js';
import { createStrategyService } from './strategy-service.js';
import { createTagService } from './tag-service.js';

export const cloneFeatureSchema = z.object({
  name: z.string().min(1, 'must name the new feature'),
  /** Whether gradual rollouts group by the new name (so the clone's users are not the same). */
  replaceGroupId: z.boolean().default(true),
});

export const completeFeatureSchema = z.object({
  status: z.enum(['kept', 'discarded']),
  statusValue: z.string().max(255, 'must be at most 255 characters').optional(),
});

export const validateConstraintSchema = constraintSchema;

/** A semantic version (semver.org 2.0.0), pre-release and build parts allowed. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** One stage of a feature's lifecycle as the reference lists them. */
export interface LifecycleStageView {
  stage: LifecycleStage;
  enteredStageAt: string;
  status?: string;
  statusValue?: string;
}

const countKey: Record<LifecycleStage, string> = {
  initial: 'initial',
  'pre-live': 'preLive',
  live: 'live',
  completed: 'completed',
  archived: 'archived',
};

/**
 * Feature operations of the reference beyond the contract: one environment of a feature, cloning,
 * the variants a child may depend on, the lifecycle (complete, uncomplete, counts), and checking a
 * constraint on its own.
 */
export function createFeatureExtras(deps: ServiceDeps, features: FeatureService) {
  const { store } = deps;

  async function setLifecycle(
    caller: Caller,
    project: string,
    name: string,
    next: (current: Lifecycle) => Lifecycle & { status?: string; statusValue?: string },
    type: 'feature-completed' | 'feature-uncompleted',
  ): Promise<void> {
    const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
    await inTransaction(deps, async (tx) => {
      const { feature, tags } = await requireFeatureWithTags(tx, project, name);
      const { status, statusValue, ...lifecycle } = next(feature.lifecycle);
      await tx.features.update({ ...feature, lifecycle });
      await writeFeatureEvents(tx, actor, lifecycle.enteredStageAt, { feature, tags }, [
        {
          type,
          data: { ...lifecycle, ...(status ? { status } : {}), ...(statusValue ? { statusValue } : {}) },
        },
      ]);
    });
  }

  return {
    /** GET …/features/:feature/environments/:environment: the feature in one environment. */
    async environment(
      caller: Caller,
      project: string,
      name: string,
      environment: string,
    ): Promise<FeatureEnvironmentView> {
      const feature = await features.get(caller, project, name);
      const found = feature.environments.find((e) => e.name === environment);
      if (!found) throw notFound('environment', environment);
      return found;
    },

    /**
     * POST …/features/:feature/clone: a new feature with the source's type, description, impression
     * data, tags, dependencies and, in every environment, its strategies, variants and switch — all in
     * one transaction, with the regular events. Gradual rollouts group by the new name unless
     * `replaceGroupId` is false.
     */
    async clone(caller: Caller, project: string, name: string, input: unknown): Promise<FeatureView> {
      await deps.policy.require(caller, 'CREATE_FEATURE', { project });
      const body = parseWith(cloneFeatureSchema, input);
      const source = await features.get(caller, project, name);
      return store.transaction(async (tx) => {
        const inTx = { ...deps, store: joined(store, tx) };
        const created = await createFeatureService(inTx).create(caller, project, {
          name: body.name,
          type: source.type,
          ...(source.description !== null ? { description: source.description } : {}),
          impressionData: source.impressionData,
        });
        const strategies = createStrategyService(inTx);
        const environments = createFeatureEnvironmentService(inTx);
        for (const env of source.environments) {
          const at = { project, feature: body.name, environment: env.name };
          for (const s of env.strategies) {
            const parameters = { ...s.parameters };
            if (body.replaceGroupId && 'groupId' in parameters) parameters['groupId'] = body.name;
            await strategies.add(caller, at, {
              name: s.name,
              ...(s.title ? { title: s.title } : {}),
              disabled: s.disabled ?? false,
              parameters,
              constraints: s.constraints,
              segments: s.segments,
              variants: s.variants,
            });
          }
          if (env.variants.length > 0)
            await environments.setVariants(caller, project, body.name, env.name, env.variants);
          if (env.enabled) await environments.setEnabled(caller, project, body.name, env.name, true);
        }
        if (source.tags.length > 0)
          await createTagService(inTx).updateFeatureTags(caller, body.name, {
            addedTags: source.tags.map((t) => ({ type: t.type, value: t.value })),
            removedTags: [],
          });
        const dependencies = createDependencyService(createOperationRunner({ ...inTx, tokenSecrets: null }));
        for (const d of source.dependencies)
          await dependencies.add(caller, project, body.name, {
            feature: d.feature,
            enabled: d.enabled,
            ...(d.variants?.length ? { variants: d.variants } : {}),
          });
        return created.name === body.name
          ? createFeatureService(inTx).get(caller, project, body.name)
          : created;
      });
    },

    /** GET …/features/:parent/parent-variants: the variant names a child's dependency may require. */
    parentVariants: (caller: Caller, project: string, parent: string): Promise<string[]> =>
      createDependencyService(createOperationRunner({ ...deps, tokenSecrets: null })).parentVariants(
        caller,
        project,
        parent,
      ),

    /** GET …/features/:feature/lifecycle: the stages so far (creation, then the current one). */
    async lifecycle(caller: Caller, project: string, name: string): Promise<LifecycleStageView[]> {
      const feature = await features.get(caller, project, name);
      const stages: LifecycleStageView[] = [];
      if (feature.lifecycle.stage !== 'initial' && feature.createdAt)
        stages.push({ stage: 'initial', enteredStageAt: feature.createdAt });
      stages.push({ ...feature.lifecycle });
      return stages;
    },

    /** POST …/lifecycle/complete: the feature's work is done (kept or discarded); feature-completed. */
    async complete(caller: Caller, project: string, name: string, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'UPDATE_FEATURE', { project });
      const body = parseWith(completeFeatureSchema, input);
      await setLifecycle(
        caller,
        project,
        name,
        () => ({
          stage: 'completed',
          enteredStageAt: nowIso(deps),
          status: body.status,
          ...(body.statusValue ? { statusValue: body.statusValue } : {}),
        }),
        'feature-completed',
      );
    },

    /** POST …/lifecycle/uncomplete: back to live; feature-uncompleted. */
    async uncomplete(caller: Caller, project: string, name: string): Promise<void> {
      await setLifecycle(
        caller,
        project,
        name,
        (current) =>
          current.stage === 'completed' ? { stage: 'live', enteredStageAt: nowIso(deps) } : current,
        'feature-uncompleted',
      );
    },

    /** GET /api/admin/lifecycle/count: features per stage (archived included) across visible projects. */
    async lifecycleCount(caller: Caller): Promise<Record<string, number>> {
      await deps.policy.require(caller, 'NONE', {});
      const hidden = new Set(await deps.policy.hiddenProjects(caller));
      const counts = Object.fromEntries(LIFECYCLE_STAGES.map((s) => [countKey[s], 0]));
      for (const f of await store.features.list()) {
        if (hidden.has(f.project)) continue;
        const stage = f.archivedAt ? 'archived' : f.lifecycle.stage;
        counts[countKey[stage]] = (counts[countKey[stage]] ?? 0) + 1;
      }
      return counts;
    },

    /** POST /api/admin/constraints/validate: nothing when the constraint is valid, VALIDATION naming the fault. */
    async validateConstraint(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'NONE', {});
      const c = parseWith(validateConstraintSchema, input);
      if (MULTI_VALUE_OPERATORS.has(c.operator)) {
        if (!c.values || c.values.length === 0)
          throw invalid('values', `must list at least one value for the ${c.operator} operator.`);
        return;
      }
      const value = c.value ?? '';
      if (c.operator.startsWith('NUM_') && (value.trim() === '' || !Number.isFinite(Number(value))))
        throw invalid('value', `must be a number for the ${c.operator} operator; "${value}" is not.`);
      if (c.operator.startsWith('DATE_') && Number.isNaN(Date.parse(value)))
        throw invalid(
          'value',
          `must be an ISO 8601 date-time for the ${c.operator} operator; "${value}" is not.`,
        );
      if (c.operator === 'REGEX') {
        // The evaluator runs REGEX constraints on RE2, which refuses what RE2 cannot run in linear
        // time (backreferences, lookaround): validate the same way, or a "valid" constraint never matches.
        try {
          RE2JS.compile(value);
        } catch {
          throw invalid('value', `must be a valid RE2 regular expression; "${value}" is not.`);
        }
      }
      if (c.operator.startsWith('SEMVER_') && !SEMVER.test(value))
        throw invalid(
          'value',
          `must be a semantic version such as 1.2.3 for the ${c.operator} operator; "${value}" is not.`,
        );
    },
  };
}

export type FeatureExtras = ReturnType<typeof createFeatureExtras>;
