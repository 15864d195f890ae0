import type { Caller } from '../../auth/caller.js';
import { type Principal, seesProject } from '../../auth/principal.js';
import { validateSegmentNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { type Segment, type SegmentStrategyReference, segmentInputSchema } from '../../domain/segment.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from './project-service.js';
import { projectVisibility } from './project-visibility.js';

async function requireSegment(repos: ReadRepositories, id: number): Promise<Segment> {
  const segment = Number.isInteger(id) ? await repos.segments.get(id) : null;
  if (!segment) throw notFound('segment', String(id));
  return segment;
}

async function checkName(tx: ReadRepositories, name: string, exceptId?: number) {
  if ((await tx.segments.list()).some((s) => s.name === name && s.id !== exceptId))
    throw conflict(`A segment named "${name}" already exists.`);
}

/** Segments: reusable constraint sets attached to strategies. */
export function createSegmentService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    list: () => store.segments.list(),
    get: (id: number) => requireSegment(store, id),

    /** POST /segments/validate: VALIDATION for an empty name, CONFLICT when a segment has it. */
    async validateName(input: unknown): Promise<void> {
      const { name } = parseWith(validateSegmentNameSchema, input);
      await checkName(store, name);
    },

    /** Creates a segment (segment-created). */
    async create(actor: Actor, input: unknown): Promise<Segment> {
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
    async update(actor: Actor, id: number, input: unknown): Promise<Segment> {
      const body = parseWith(segmentInputSchema, input);
      return inTransaction(deps, async (tx) => {
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
      });
    },

    /** Deletes a segment that no strategy uses (segment-deleted). */
    async delete(actor: Actor, id: number): Promise<void> {
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
      changeRequestStrategies: SegmentStrategyReference[];
    }> {
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
      return { strategies, changeRequestStrategies: [] };
    },
  };
}

export type SegmentService = ReturnType<typeof createSegmentService>;
