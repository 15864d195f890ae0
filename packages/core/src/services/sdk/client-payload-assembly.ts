import { type DeltaState, type FeatureEntry, type FeatureFilter, passes } from './client-delta.js';
import { gzipFromFragments } from './client-payload-gzip.js';
import { type AssembledJson, joinFragments } from './client-payloads.js';

// Full answers (the client API's payload, a hydration) written from the fragments the delta state
// keeps: each feature serialized once per revision it changed in, never the whole payload as a string.

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

/**
 * `head`, the features, `tail`: bytes from kept fragments (or, given `list`, those features' bytes
 * already joined for another answer, shared rather than copied), gzip from kept compressed blocks.
 */
function assembled(
  head: string,
  features: readonly FeatureEntry[],
  tail: string,
  list?: Uint8Array,
): AssembledJson {
  if (list) {
    const pieces = [Buffer.from(head), list, Buffer.from(tail)] as const;
    return { pieces, list, gzip: () => gzipFromFragments(pieces, features) };
  }
  const bytes = joinFragments(head, features, tail);
  const start = Buffer.byteLength(head);
  const end = bytes.length - Buffer.byteLength(tail);
  const pieces = [bytes.subarray(0, start), bytes.subarray(start, end), bytes.subarray(end)] as const;
  return { pieces: [bytes], list: pieces[1], gzip: () => gzipFromFragments(pieces, features) };
}

/** The client API's payload (`GET /api/client/features`) assembled from the kept fragments. */
export const featuresPayloadBytes = (
  state: DeltaState,
  filter: FeatureFilter,
  query: Record<string, unknown>,
  meta: Record<string, unknown>,
): AssembledJson =>
  assembled(
    '{"version":2,"features":[',
    featureList(state, filter),
    `],"segments":[${segmentListJson(state)}],"query":${JSON.stringify(query)},"meta":${JSON.stringify(meta)}}`,
  );

/**
 * A delta answer that is one hydration event: everything a filter sees at the state's revision.
 * `list`: the same filter's feature list at the same revision as the client payload holds it
 * (`PreparedPayload.list`), to share.
 */
export const hydrationBytes = (state: DeltaState, filter: FeatureFilter, list?: Uint8Array): AssembledJson =>
  assembled(
    `{"events":[{"type":"hydration","eventId":${state.revision},"features":[`,
    featureList(state, filter),
    `],"segments":[${segmentListJson(state)}]}]}`,
    list,
  );
