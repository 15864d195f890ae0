import type {
  ClientFeature,
  ClientFeatures,
  ClientFeaturesDeltaEvent,
  ClientSegment,
} from './client-features.js';

/**
 * Applies delta-API events, in order, to a client-API state and returns the new state (the input is
 * left untouched). Unknown event types are skipped, as SDKs do.
 */
export function applyDelta(
  state: ClientFeatures,
  events: readonly ClientFeaturesDeltaEvent[],
): ClientFeatures {
  let features = new Map<string, ClientFeature>(
    (state.features ?? []).map((feature) => [feature.name, feature]),
  );
  let segments = new Map<number, ClientSegment>(
    (state.segments ?? []).map((segment) => [segment.id, segment]),
  );
  for (const event of events) {
    switch (event.type) {
      case 'feature-updated':
        features.set(event.feature.name, event.feature);
        break;
      case 'feature-removed':
        features.delete(event.featureName);
        break;
      case 'segment-updated':
        segments.set(event.segment.id, event.segment);
        break;
      case 'segment-removed':
        segments.delete(event.segmentId);
        break;
      case 'hydration':
        features = new Map((event.features ?? []).map((feature) => [feature.name, feature]));
        segments = new Map((event.segments ?? []).map((segment) => [segment.id, segment]));
        break;
    }
  }
  const next: ClientFeatures = { features: [...features.values()], segments: [...segments.values()] };
  if (state.version !== undefined) next.version = state.version;
  return next;
}
