import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { OPEN_STATES } from '../../domain/change-request.js';
import { validateSegmentNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { type Segment, type SegmentStrategyReference, segmentInputSchema } from '../../domain/segment.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from './project-service.js';

async function requireSegment(repos: ReadRepositories, id: number): Promise<Segment> {
  const segment = Number.isInteger(id) ? await repos.segments.get(id) : null;
  if (!segment) throw notFound('segment', String(id));
  return segment;
}

async function checkName(tx: ReadRepositories, name: string, exceptId?: number) {
  if ((await tx.segments.list()).some((s) => s.name === name && s.id !== exceptId))
    throw conflict(`A segment named "${name}" already exists.`, 'name');
}

/**
 * Replaces a segment inside a caller's transaction, after the policy was asked (the segment route
 * and applying a change request's `updateSegment`).
 */
export async function updateSegment(
  deps: ServiceDeps,
  tx: Repositories,
  actor: Actor,
  id: number,
  body: z.infer<typeof segmentInputSchema>,
): Promise<Segment> {
  const before = await requireSegment(tx, id);
  await checkName(tx, body.name, id);
  if (body.project) {
    await requireProject(tx, body.project);
    const users = await tx.strategies.list({ segmentId: id });
    const outside = users.find((s) => s.projectId !== body.project);
    if (outside)
      throw new FlagstaffError(
        'VALIDATION',
        `"project" cannot be "${body.project}": the segment is used by "${outside.featureName}" in project "${outside.projectId}".`,
        { path: 'project' },
      );
  }
  const after: Segment = {
    ...before,
    name: body.name,
    description: body.description ?? null,
    project: body.project ?? null,
    constraints: body.constraints,
  };
  await tx.segments.update(after);
  await writeEvents(tx, actor, nowIso(deps), [
    { type: 'segment-updated', project: after.project, data: after, preData: before },
  ]);
  return after;
}

/** Segments: reusable constraint sets attached to strategies. */
export function createSegmentService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    async list(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      return store.segments.list();
    },
    async get(caller: Caller, id: number) {
      await deps.policy.require(caller, 'NONE', {});
      return requireSegment(store, id);
    },

    /** POST /segments/validate: VALIDATION for an empty name, CONFLICT when a segment has it. */
    async validateName(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'NONE', {});
      const { name } = parseWith(validateSegmentNameSchema, input);
      await checkName(store, name);
    },

    /** Creates a segment (segment-created). */
    async create(caller: Caller, input: unknown): Promise<Segment> {
      const actor = await deps.policy.permit(caller, 'CREATE_SEGMENT', {});
      const body = parseWith(segmentInputSchema, input);
      return inTransaction(deps, async (tx) => {
        await checkName(tx, body.name);
        if (body.project) await requireProject(tx, body.project);
        const segment = await tx.segments.insert({
          name: body.name,
          description: body.description ?? null,
          project: body.project ?? null,
          constraints: body.constraints,
          createdAt: nowIso(deps),
          createdBy: actor.name,
        });
        await writeEvents(tx, actor, segment.createdAt, [
          { type: 'segment-created', project: segment.project, data: segment },
        ]);
        return segment;
      });
    },

    /** Replaces a segment's name, description, project and constraints (segment-updated). */
    async update(caller: Caller, id: number, input: unknown): Promise<Segment> {
      const actor = await deps.policy.permit(caller, 'UPDATE_SEGMENT', {});
      const body = parseWith(segmentInputSchema, input);
      return inTransaction(deps, (tx) => updateSegment(deps, tx, actor, id, body));
    },

    /** Deletes a segment that no strategy uses (segment-deleted). */
    async delete(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_SEGMENT', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireSegment(tx, id);
        const users = await tx.strategies.list({ segmentId: id });
        if (users.length > 0)
          throw new FlagstaffError(
            'CONFLICT',
            `Segment "${before.name}" is used by ${users.length} strateg${users.length === 1 ? 'y' : 'ies'}; remove it from them first.`,
          );
        await tx.segments.delete(id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'segment-deleted', project: before.project, preData: before },
        ]);
      });
    },

    /**
     * Strategies that use the segment (GET /segments/:id/strategies), leaving out those in private
     * projects the caller may not see, as the reference does.
     */
    async strategiesUsing(
      caller: Caller,
      id: number,
    ): Promise<{
      strategies: SegmentStrategyReference[];
      changeRequestStrategies: (Omit<SegmentStrategyReference, 'id'> & { id?: string })[];
    }> {
      await deps.policy.require(caller, 'NONE', {});
      await requireSegment(store, id);
      const visibility = await projectVisibility(store, caller.principal);
      const users = await store.strategies.list({ segmentId: id });
      const strategies = users
        .filter((s) => seesProject(visibility, s.projectId))
        .map((s) => ({
          id: s.id,
          featureName: s.featureName,
          projectId: s.projectId,
          environment: s.environment,
          strategyName: s.name,
        }));
      // Strategies that open change requests would add or change to use the segment.
      const open = await store.changeRequests.list({ states: [...OPEN_STATES] });
      const changeRequestStrategies = open
        .filter((r) => seesProject(visibility, r.project))
        .flatMap((r) =>
          r.changes
            .filter((c) => c.action === 'addStrategy' || c.action === 'updateStrategy')
            .filter((c) => ((c.payload as { segments?: number[] }).segments ?? []).includes(id))
            .map((c) => {
              const payload = c.payload as { id?: string; name: string };
              return {
                ...(payload.id !== undefined && { id: payload.id }),
                featureName: c.feature ?? '',
                projectId: r.project,
                environment: r.environment,
                strategyName: payload.name,
              };
            }),
        );
      return { strategies, changeRequestStrategies };
    },
  };
}

export type SegmentService = ReturnType<typeof createSegmentService>;
