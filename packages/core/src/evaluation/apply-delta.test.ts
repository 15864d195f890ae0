import { describe, expect, it } from 'vitest';
import { applyDelta } from './apply-delta.js';
import type { ClientFeature, ClientFeatures } from './client-features.js';

const feature = (name: string, enabled = true): ClientFeature => ({ name, enabled, strategies: [] });
const segment = (id: number) => ({ id, name: `s${id}`, constraints: [] });

describe('applyDelta', () => {
  const state: ClientFeatures = {
    version: 2,
    features: [feature('a'), feature('b')],
    segments: [segment(1)],
  };

  it('applies updates, removals and segment changes in order without touching the input', () => {
    const next = applyDelta(state, [
      { eventId: 1, type: 'feature-updated', feature: feature('a', false) },
      { eventId: 2, type: 'feature-updated', feature: feature('c') },
      { eventId: 3, type: 'feature-removed', featureName: 'b', project: 'default' },
      { eventId: 4, type: 'segment-updated', segment: segment(2) },
      { eventId: 5, type: 'segment-removed', segmentId: 1 },
    ]);
    expect(next).toEqual({
      version: 2,
      features: [feature('a', false), feature('c')],
      segments: [segment(2)],
    });
    expect(state.features.map((f) => f.name)).toEqual(['a', 'b']);
    expect(state.segments).toEqual([segment(1)]);
  });

  it('replaces everything on hydration and keeps applying later events', () => {
    const next = applyDelta(state, [
      { eventId: 1, type: 'hydration', features: [feature('x')], segments: [segment(9)] },
      { eventId: 2, type: 'feature-updated', feature: feature('y') },
    ]);
    expect(next.features.map((f) => f.name)).toEqual(['x', 'y']);
    expect(next.segments).toEqual([segment(9)]);
  });

  it('skips unknown event types', () => {
    const next = applyDelta(state, [{ eventId: 1, type: 'feature-archived' } as never]);
    expect(next.features).toEqual(state.features);
  });
});
