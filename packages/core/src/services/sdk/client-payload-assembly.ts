import { type DeltaState, type FeatureEntry, type FeatureFilter, passes } from './client-delta.js';
import { type BlockJson, blockJson } from './client-payload-blocks.js';

// Full answers (the client API's payload, a hydration) written from the fragments the delta state
// keeps: each feature serialized once per revision it changed in, the list's bytes kept in blocks
// (`client-payload-blocks.ts`), never the whole payload as one string or buffer.

/** The features a filter lets through, in payload order. */
export function featureList(state: DeltaState, filter: FeatureFilter): FeatureEntry[] {
  const list: FeatureEntry[] = [];
  for (const entry of state.features.values()) {
    if (passes(filter, entry.name, entry.project)) list.push(entry);
  }
  return list;
}

/** The segments' JSON, as one array's inner text. */
export const segmentListJson = (state: DeltaState): string => [...state.segments.values()].join(',');

/** The client API's payload (`GET /api/client/features`) assembled from the kept fragments. */
export const featuresPayloadBytes = (
  state: DeltaState,
  filter: FeatureFilter,
  query: Record<string, unknown>,
  meta: Record<string, unknown>,
): BlockJson =>
  blockJson(
    '{"version":2,"features":[',
    featureList(state, filter),
    `],"segments":[${segmentListJson(state)}],"query":${JSON.stringify(query)},"meta":${JSON.stringify(meta)}}`,
  );

/**
 * A delta answer that is one hydration event: everything a filter sees at the state's revision. Its
 * feature list is the client payload's blocks for the same filter and revision: the same memory.
 */
export const hydrationBytes = (state: DeltaState, filter: FeatureFilter): BlockJson =>
  blockJson(
    `{"events":[{"type":"hydration","eventId":${state.revision},"features":[`,
    featureList(state, filter),
    `],"segments":[${segmentListJson(state)}]}]}`,
  );
