import { EVENT_TYPES } from '@flagstaff/core';
import { describe, expect, it } from 'vitest';
import { groupEventTypes, groupOf } from './event-type-picker';

describe('event type groups', () => {
  it('place each of core event types in exactly one group', () => {
    const groups = groupEventTypes(EVENT_TYPES);
    const placed = groups.flatMap(([, list]) => list);
    expect(placed).toHaveLength(EVENT_TYPES.length);
    expect(new Set(placed)).toEqual(new Set(EVENT_TYPES));
    expect(EVENT_TYPES.length).toBeGreaterThanOrEqual(147);
  });

  it('name groups in words', () => {
    expect(groupOf('feature-created')).toBe('Features');
    expect(groupOf('features-exported')).toBe('Features');
    expect(groupOf('change-request-approved')).toBe('Change requests');
    expect(groupOf('pat-created')).toBe('Personal access tokens');
    expect(groupOf('something-new')).toBe('Something');
  });
});
