import type { Caller } from '../../auth/caller.js';
import type { Segment } from '../../domain/segment.js';
import type { OperationInput, OperationOutput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  createSegment,
  deleteSegment,
  getSegment,
  listSegmentStrategies,
  listSegments,
  updateSegment,
  validateSegmentName,
} from './segment-operations.js';

/** Applying a change request's `updateSegment` replaces the segment inside the request's transaction. */
export { replaceSegment as updateSegment } from './segment-operations.js';

/** Segments, reusable constraint sets attached to strategies: typed wrappers over `segment-operations.ts`. */
export function createSegmentService(run: OperationRunner) {
  return {
    list: async (caller: Caller): Promise<Segment[]> => (await run(listSegments, caller, {})).segments,
    get: (caller: Caller, id: number): Promise<Segment> => run(getSegment, caller, { id }),
    /** VALIDATION for an empty name, CONFLICT when a segment has it. */
    validateName: (caller: Caller, input: OperationInput<typeof validateSegmentName>): Promise<void> =>
      run(validateSegmentName, caller, input),
    /** Creates a segment (segment-created). */
    create: (caller: Caller, input: OperationInput<typeof createSegment>): Promise<Segment> =>
      run(createSegment, caller, input),
    /** Replaces a segment's name, description, project and constraints (segment-updated). */
    update: (
      caller: Caller,
      id: number,
      input: Omit<OperationInput<typeof updateSegment>, 'id'>,
    ): Promise<Segment> => run(updateSegment, caller, { ...input, id }),
    /** Deletes a segment that no strategy uses (segment-deleted). */
    delete: (caller: Caller, id: number): Promise<void> => run(deleteSegment, caller, { id }),
    /** Strategies that use the segment, as far as the caller may see them. */
    strategiesUsing: (caller: Caller, id: number): Promise<OperationOutput<typeof listSegmentStrategies>> =>
      run(listSegmentStrategies, caller, { id }),
  };
}

export type SegmentService = ReturnType<typeof createSegmentService>;
