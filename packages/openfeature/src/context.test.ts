import { describe, expect, it } from 'vitest';
import { toUnleashContext } from './context.js';

describe('toUnleashContext', () => {
  it('maps targetingKey to userId, keeps known fields and turns the rest into string properties', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    expect(
      toUnleashContext({
        targetingKey: 'u-1',
        sessionId: 's-1',
        remoteAddress: '10.0.0.1',
        appName: 'shop',
        currentTime: at,
        plan: 'pro',
        seats: 5,
        beta: true,
        signedUp: at,
        tags: ['a', 'b'],
        properties: { region: 'eu' },
        nothing: null,
      }),
    ).toEqual({
      userId: 'u-1',
      sessionId: 's-1',
      remoteAddress: '10.0.0.1',
      appName: 'shop',
      currentTime: at,
      properties: {
        plan: 'pro',
        seats: '5',
        beta: 'true',
        signedUp: '2026-01-01T00:00:00.000Z',
        tags: '["a","b"]',
        region: 'eu',
      },
    });
  });

  it('lets an explicit userId win over targetingKey', () => {
    expect(toUnleashContext({ targetingKey: 't', userId: 'u' })).toEqual({ userId: 'u', properties: {} });
    expect(toUnleashContext({ targetingKey: '' })).toEqual({ properties: {} });
  });
});
