import { z } from 'zod';
import { seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { OPEN_STATES } from '../../domain/change-request.js';
import { validateSegmentNameSchema } from '../../domain/name-validation.js';
import {
  type Segment,
  segmentInputSchema,
  segmentListSchema,
  segmentSchema,
  segmentStrategiesSchema,
} from '../../domain/segment.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from './project-records.js';

/** A segment id; one that is no integer names no segment. */
const id = z.number();

async function requireSegment(repos: ReadRepositories, id: number): Promise<Segment> {
  const segment = Number.isInteger(id) ? await repos.segments.get(id) : null;
  if (!segment) throw notFound('segment', String(id));
  return segment;
}

async function checkName(repos: ReadRepositories, name: string, exceptId?: number) {
  if ((await repos.segments.list()).some((s) => s.name === name && s.id !== exceptId))
    throw conflict(`A segment named "${name}" already exists.`, 'name');
}

/**
 * Replaces a segment inside a caller's transaction, after the policy was asked (the segment
 * operation and applying a change request's `updateSegment`).
 */
export async function replaceSegment(
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

/** Every segment; any signed-in caller may read them. */
export const listSegments = defineOperation({
  id: 'segments.list',
  summary: 'List segments',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: segmentListSchema,
  run: async (_input, { repos }) => ({ segments: await repos.segments.list() }),
});

/** One segment, or NOT_FOUND. */
export const getSegment = defineOperation({
  id: 'segments.get',
  summary: 'Get a segment',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ id }),
  output: segmentSchema,
  run: (input, { repos }) => requireSegment(repos, input.id),
});

/** VALIDATION for an empty name, CONFLICT when a segment has it. */
export const validateSegmentName = defineOperation({
  id: 'segments.validateName',
  summary: 'Validate a segment name',
  kind: 'read',
  permission: 'NONE',
  input: validateSegmentNameSchema,
  output: z.void(),
  run: (input, { repos }) => checkName(repos, input.name),
});

/** Creates a segment (segment-created). */
export const createSegment = defineOperation({
  id: 'segments.create',
  summary: 'Create a segment',
  kind: 'write',
  permission: 'CREATE_SEGMENT',
  input: segmentInputSchema,
  output: segmentSchema,
  run: async (body, { deps, repos, actor }) => {
    await checkName(repos, body.name);
    if (body.project) await requireProject(repos, body.project);
    const segment = await repos.segments.insert({
      name: body.name,
      description: body.description ?? null,
      project: body.project ?? null,
      constraints: body.constraints,
      createdAt: nowIso(deps),
      createdBy: actor.name,
    });
    await writeEvents(repos, actor, segment.createdAt, [
      { type: 'segment-created', project: segment.project, data: segment },
    ]);
    return segment;
  },
});

/** Replaces a segment's name, description, project and constraints (segment-updated). */
export const updateSegment = defineOperation({
  id: 'segments.update',
  summary: 'Update a segment',
  kind: 'write',
  permission: 'UPDATE_SEGMENT',
  input: segmentInputSchema.extend({ id }),
  output: segmentSchema,
  run: ({ id, ...body }, { deps, repos, actor }) => replaceSegment(deps, repos, actor, id, body),
});

/** Deletes a segment that no strategy uses (segment-deleted). */
export const deleteSegment = defineOperation({
  id: 'segments.delete',
  summary: 'Delete a segment',
  kind: 'write',
  permission: 'DELETE_SEGMENT',
  input: z.object({ id }),
  output: z.void(),
  run: async ({ id }, { deps, repos, actor }) => {
    const before = await requireSegment(repos, id);
    const users = await repos.strategies.list({ segmentId: id });
    if (users.length > 0)
      throw new FlagstaffError(
        'CONFLICT',
        `Segment "${before.name}" is used by ${users.length} strateg${users.length === 1 ? 'y' : 'ies'}; remove it from them first.`,
      );
    await repos.segments.delete(id);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'segment-deleted', project: before.project, preData: before },
    ]);
  },
});

/**
 * Strategies that use the segment, and those open change requests would add or change to use it,
 * leaving out those in private projects the caller may not see, as the reference does.
 */
export const listSegmentStrategies = defineOperation({
  id: 'segments.strategies',
  summary: 'List the strategies that use a segment',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ id }),
  output: segmentStrategiesSchema,
  run: async ({ id }, { repos, caller }) => {
    await requireSegment(repos, id);
    const visibility = await projectVisibility(repos, caller.principal);
    const strategies = (await repos.strategies.list({ segmentId: id }))
      .filter((s) => seesProject(visibility, s.projectId))
      .map((s) => ({
        id: s.id,
        featureName: s.featureName,
        projectId: s.projectId,
        environment: s.environment,
        strategyName: s.name,
      }));
    const open = await repos.changeRequests.list({ states: [...OPEN_STATES] });
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
});

/** Every segment operation, for route tables and tools. */
export const segmentOperations = [
  listSegments,
  getSegment,
  validateSegmentName,
  createSegment,
  updateSegment,
  deleteSegment,
  listSegmentStrategies,
] as const;
