import { describe, expect, it } from 'vitest';
import { FlagstaffError } from '../../errors.js';
import type { ClientFeature } from '../../evaluation/client-features.js';
import { compileFeatures } from '../../evaluation/compile-features.js';
import { evaluateOfrepFlag, ofrepContext } from './ofrep-evaluation.js';

describe('ofrepContext', () => {
  it('maps targetingKey to userId, Unleash fields by name, the rest to properties', () => {
    expect(
      ofrepContext({
        context: {
          targetingKey: 'u1',
          sessionId: 's',
          appName: 'app',
          remoteAddress: '10.0.0.1',
          currentTime: '2026-01-01T00:00:00Z',
          environment: 'production',
          country: 'NO',
          age: 42,
          beta: true,
          nested: { a: 1 },
          properties: { plan: 'pro', country: 'SE' },
        },
      }),
    ).toEqual({
      userId: 'u1',
      sessionId: 's',
      appName: 'app',
      remoteAddress: '10.0.0.1',
      currentTime: '2026-01-01T00:00:00Z',
      environment: 'production',
      properties: { country: 'NO', age: '42', beta: 'true', plan: 'pro' },
    });
  });

  it('reads a missing body or context as an empty context', () => {
    expect(ofrepContext(undefined)).toEqual({});
    expect(ofrepContext({})).toEqual({});
    expect(ofrepContext({ context: { targetingKey: null } })).toEqual({});
  });

  it('refuses contexts that are not objects and targeting keys that are not strings', () => {
    for (const body of ['x', [1], { context: 'x' }, { context: [] }, { context: { targetingKey: 1 } }]) {
      const error = (() => {
        try {
          ofrepContext(body);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(FlagstaffError);
      expect((error as FlagstaffError).details).toEqual({ ofrepErrorCode: 'INVALID_CONTEXT' });
    }
  });
});

const feature = (name: string, extra: Partial<ClientFeature>): ClientFeature => ({
  name,
  enabled: true,
  project: 'default',
  strategies: [{ name: 'default', parameters: {}, constraints: [] }],
  ...extra,
});

const variant = (name: string, payload?: { type: 'number' | 'json'; value: string }) => ({
  name,
  weight: 500,
  weightType: 'variable' as const,
  stickiness: 'default',
  ...(payload ? { payload } : {}),
});

const compiled = compileFeatures({
  version: 2,
  features: [
    feature('off', { enabled: false }),
    feature('static', {}),
    feature('targeted', {
      strategies: [
        {
          name: 'default',
          parameters: {},
          constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
        },
      ],
    }),
    feature('split', {
      variants: [variant('a', { type: 'number', value: '7' }), variant('b', { type: 'number', value: '7' })],
    }),
    feature('typed', {
      variants: [{ ...variant('only', { type: 'json', value: '{"x":[1]}' }), weight: 1000 }],
    }),
  ],
});

const evaluate = (name: string, country?: string, typed = false) =>
  evaluateOfrepFlag(
    compiled,
    compiled.get(name)!,
    { userId: 'u', ...(country ? { properties: { country } } : {}) },
    typed,
  );

describe('evaluateOfrepFlag', () => {
  it('gives each reason', () => {
    expect(evaluate('off')).toEqual({
      key: 'off',
      value: false,
      reason: 'DISABLED',
      metadata: { enabled: false },
    });
    expect(evaluate('static')).toMatchObject({ value: true, reason: 'STATIC' });
    expect(evaluate('targeted', 'NO')).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(evaluate('targeted', 'SE')).toMatchObject({ value: false, reason: 'DEFAULT' });
    expect(evaluate('split')).toMatchObject({
      value: true,
      reason: 'SPLIT',
      metadata: { payloadType: 'number' },
    });
  });

  it('puts the payload in metadata, and in the value only when typed values are asked for', () => {
    expect(evaluate('typed')).toEqual({
      key: 'typed',
      value: true,
      reason: 'STATIC',
      variant: 'only',
      metadata: { enabled: true, payloadType: 'json', payload: '{"x":[1]}' },
    });
    expect(evaluate('typed', undefined, true).value).toEqual({ x: [1] });
    expect(evaluate('split', undefined, true).value).toBe(7);
    expect(evaluate('static', undefined, true).value).toBe(true);
  });
});
