import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSTRAINT_OPERATORS } from '../domain/constraint.js';
import type { ClientFeatures } from './client-features.js';
import { compileFeatures } from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';
import { type ExplainOptions, explainFeatures } from './explain-features.js';
import { explainFeaturesJson } from './explain-features-json.js';

/** mulberry32: every run generates the same configurations. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const chance = (rand: Rand, p: number) => rand() < p;
const times = <T>(rand: Rand, max: number, make: (i: number) => T): T[] =>
  Array.from({ length: Math.floor(rand() * (max + 1)) }, (_, i) => make(i));

// Strings that need escaping or are otherwise odd in JSON.
const ODD_STRINGS = [
  'u1',
  'u2',
  '',
  'quote"inside',
  'back\\slash',
  'new\nline\ttab',
  '\u0000\u001f control',
  'émoji 🚩',
  '\ud800 lone surrogate',
  '</script>',
  '\u2028\u2029',
  '2.0.0',
  '18',
  '2024-01-01T00:00:00.000Z',
  '10.0.0.0/8',
  '^a.*',
];
const ODD_VALUES: unknown[] = [...ODD_STRINGS, 3, -0, 1.5e300, null, true, { nested: ['x'] }, [1, 'two']];
const CONTEXT_NAMES = [
  'userId',
  'sessionId',
  'remoteAddress',
  'plan',
  'tenant',
  'currentTime',
  'appName',
  'age',
];
const OPERATORS = [...CONSTRAINT_OPERATORS, 'NOT_AN_OPERATOR', ''];
const STRATEGY_NAMES = [
  'default',
  'flexibleRollout',
  'userWithId',
  'remoteAddress',
  'applicationHostname',
  'gradualRolloutRandom',
  'myCustom',
  'quo"te',
];

function constraint(rand: Rand): unknown {
  if (chance(rand, 0.03)) return pick(rand, [null, 'garbage', 7]);
  const c: Record<string, unknown> = {
    contextName: chance(rand, 0.03) ? undefined : pick(rand, CONTEXT_NAMES),
    operator: pick(rand, OPERATORS),
  };
  if (chance(rand, 0.7))
    c.values = times(rand, 3, () => (chance(rand, 0.9) ? pick(rand, ODD_STRINGS) : pick(rand, ODD_VALUES)));
  if (chance(rand, 0.5)) c.value = chance(rand, 0.9) ? pick(rand, ODD_STRINGS) : pick(rand, ODD_VALUES);
  if (chance(rand, 0.5)) c.caseInsensitive = pick(rand, [true, false, 'yes', null]);
  if (chance(rand, 0.5)) c.inverted = pick(rand, [true, false, 1, null]);
  return c;
}

function payload(rand: Rand): Record<string, unknown> | undefined {
  if (!chance(rand, 0.4)) return undefined;
  return chance(rand, 0.8)
    ? { type: pick(rand, ['string', 'json', 'csv']), value: pick(rand, ODD_STRINGS) }
    : { type: 'json', value: '{"a":1}', extra: pick(rand, ODD_VALUES) };
}

function variant(rand: Rand, withOverrides: boolean): unknown {
  if (chance(rand, 0.03)) return pick(rand, [null, 'garbage']);
  const v: Record<string, unknown> = {
    name: pick(rand, ['blue', 'red', 'gr"een', 'é']),
    weight: pick(rand, [0, 1, 500, 1000]),
  };
  if (chance(rand, 0.5)) v.weightType = pick(rand, ['variable', 'fix']);
  if (chance(rand, 0.6)) v.stickiness = pick(rand, ['default', 'userId', 'sessionId', 'plan', 'random']);
  const p = payload(rand);
  if (p) v.payload = p;
  if (withOverrides && chance(rand, 0.3))
    v.overrides = times(rand, 2, () =>
      chance(rand, 0.9)
        ? { contextName: pick(rand, CONTEXT_NAMES), values: times(rand, 2, () => pick(rand, ODD_STRINGS)) }
        : null,
    );
  return v;
}

function strategy(rand: Rand, index: number, segmentIds: readonly number[]): unknown {
  if (chance(rand, 0.03)) return pick(rand, [null, 'garbage']);
  const name = pick(rand, STRATEGY_NAMES);
  const parameters: Record<string, unknown> = {};
  if (name === 'flexibleRollout' || chance(rand, 0.2)) {
    parameters.rollout = pick(rand, ['0', '50', '100', 30, 'abc']);
    if (chance(rand, 0.7))
      parameters.stickiness = pick(rand, ['default', 'userId', 'sessionId', 'random', 'plan']);
    if (chance(rand, 0.8)) parameters.groupId = pick(rand, ODD_STRINGS);
  }
  if (name === 'userWithId') parameters.userIds = pick(rand, ['u1,u2', 'u2', '']);
  if (name === 'remoteAddress') parameters.IPs = pick(rand, ['10.0.0.1', '10.0.0.0/8, ::1', '']);
  if (name === 'applicationHostname') parameters.hostNames = pick(rand, ['here', 'elsewhere']);
  if (name === 'gradualRolloutRandom') parameters.percentage = pick(rand, ['0', '50', '100']);
  if (chance(rand, 0.2)) parameters[pick(rand, ODD_STRINGS)] = pick(rand, ODD_VALUES);
  const s: Record<string, unknown> = {
    name: chance(rand, 0.03) ? undefined : name,
    parameters: chance(rand, 0.03) ? null : parameters,
    constraints: chance(rand, 0.05) ? 'not a list' : times(rand, 3, () => constraint(rand)),
  };
  if (chance(rand, 0.9)) s.id = chance(rand, 0.9) ? `s-${index}-${pick(rand, ODD_STRINGS)}` : 42;
  if (chance(rand, 0.4)) s.title = pick(rand, [...ODD_STRINGS, null, 5]);
  if (chance(rand, 0.25)) s.disabled = pick(rand, [true, false, null]);
  if (chance(rand, 0.6)) s.sortOrder = pick(rand, [0, 1, 2, -1, 'x']);
  if (chance(rand, 0.3))
    s.segments = times(rand, 2, () => (chance(rand, 0.8) ? pick(rand, segmentIds) : 999));
  if (chance(rand, 0.3)) s.variants = times(rand, 3, () => variant(rand, false));
  return s;
}

function configuration(rand: Rand): ClientFeatures {
  const segmentIds = [1, 2, 3];
  const segments = segmentIds
    .filter(() => chance(rand, 0.8))
    .map((id) => {
      const segment: Record<string, unknown> = { id, constraints: times(rand, 2, () => constraint(rand)) };
      if (chance(rand, 0.9)) segment.name = pick(rand, ODD_STRINGS);
      return segment;
    });
  const count = 1 + Math.floor(rand() * 8);
  const names = Array.from({ length: count }, (_, i) => `f${i}-${pick(rand, ODD_STRINGS)}`);
  const features = names.map((name, i) => {
    const f: Record<string, unknown> = {
      name,
      enabled: pick(rand, [true, true, false, 1, undefined]),
      strategies: chance(rand, 0.04) ? null : times(rand, 4, (s) => strategy(rand, i * 10 + s, segmentIds)),
    };
    if (chance(rand, 0.8)) f.project = pick(rand, ['default', 'web', '', 'pro"ject', 7]);
    if (chance(rand, 0.4))
      f.variants = chance(rand, 0.1) ? 'garbage' : times(rand, 3, () => variant(rand, true));
    if (chance(rand, 0.3))
      f.dependencies = times(rand, 2, () => {
        const d: Record<string, unknown> = { feature: chance(rand, 0.9) ? pick(rand, names) : 'missing' };
        if (chance(rand, 0.5)) d.enabled = pick(rand, [true, false]);
        if (chance(rand, 0.3)) d.variants = times(rand, 2, () => pick(rand, ['blue', 'red', 'disabled']));
        return d;
      });
    return f;
  });
  // A repeated name keeps its first position with its last definition.
  if (chance(rand, 0.1)) features.push({ ...features[0]!, enabled: true });
  return { features, segments } as unknown as ClientFeatures;
}

function context(rand: Rand): EvaluationContext {
  const c: EvaluationContext = { appName: pick(rand, ['test', 'web', '']) };
  if (chance(rand, 0.7)) c.userId = pick(rand, ['u1', 'u2', 'user-17', ...ODD_STRINGS]);
  if (chance(rand, 0.4)) c.sessionId = pick(rand, ['s1', 's2']);
  if (chance(rand, 0.3)) c.remoteAddress = pick(rand, ['10.0.0.1', '::1', 'nonsense']);
  if (chance(rand, 0.5))
    c.currentTime = pick(rand, ['2023-06-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'x']);
  if (chance(rand, 0.6))
    c.properties = {
      plan: pick(rand, ['beta', 'free', ...ODD_STRINGS]),
      tenant: pick(rand, ['acme', 'x']),
      age: pick(rand, ['17', '30']),
    };
  if (chance(rand, 0.2)) c.age = pick(rand, [21, '40', null]);
  return c;
}

// Random stickiness and random rollouts read Math.random: both runs get the same sequence.
function withSeededRandom<T>(seed: number, run: () => T): T {
  const random = prng(seed);
  const spy = vi.spyOn(Math, 'random').mockImplementation(random);
  try {
    return run();
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('explainFeaturesJson', () => {
  it('is JSON.stringify(explainFeatures(...)) for generated configurations and contexts', () => {
    let checked = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const rand = prng(seed);
      const compiled = compileFeatures(configuration(rand), chance(rand, 0.5) ? { hostname: 'here' } : {});
      for (let c = 0; c < 5; c++) {
        const ctx = context(rand);
        const options: ExplainOptions = {
          environment: pick(rand, ['development', 'pro"d', 'é']),
          projects: pick(rand, [undefined, '*', ['default'], ['web', 'pro"ject'], []] as const),
        };
        const expected = withSeededRandom(seed * 31 + c, () =>
          JSON.stringify(explainFeatures(compiled, ctx, options)),
        );
        // Chunks of 1 to 4 features and one piece: the joins between chunks must not show.
        const perChunk = c === 4 ? Infinity : 1 + (seed % 4);
        const actual = withSeededRandom(seed * 31 + c, () =>
          explainFeaturesJson(compiled, ctx, options, perChunk),
        );
        if (actual !== expected) {
          expect({ seed, context: c, actual }).toEqual({ seed, context: c, actual: expected });
        }
        checked++;
      }
    }
    expect(checked).toBe(2000);
  });

  // Each combination of constraint results comes out as the object path writes it, every time.
  it('writes every outcome of a strategy exactly, again and again', () => {
    const compiled = compileFeatures({
      features: [
        {
          name: 'a',
          enabled: true,
          project: 'p',
          strategies: [
            {
              id: 's1',
              name: 'default',
              parameters: {},
              constraints: [
                { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] },
                { contextName: 'appName', operator: 'IN', values: ['web'] },
              ],
            },
            { id: 's2', name: 'userWithId', parameters: { userIds: 'u2,u3' }, constraints: [] },
          ],
        },
      ],
    });
    const contexts = [
      { userId: 'u1', appName: 'web' },
      { userId: 'u1', appName: 'ios' },
      { userId: 'u3', appName: 'web' },
      { userId: 'u2', appName: 'ios' },
    ];
    for (let round = 0; round < 3; round++)
      for (const ctx of contexts)
        expect(explainFeaturesJson(compiled, ctx, { environment: 'dev' }, 1)).toBe(
          JSON.stringify(explainFeatures(compiled, ctx, { environment: 'dev' })),
        );
  });

  it('serves the same compiled feature in several environments', () => {
    const compiled = compileFeatures({
      features: [
        {
          name: 'a',
          enabled: true,
          project: 'p',
          strategies: [{ id: 's1', name: 'default', parameters: {}, constraints: [] }],
        },
      ],
    });
    for (const environment of ['dev', 'prod', 'dev']) {
      expect(explainFeaturesJson(compiled, { userId: 'u' }, { environment }, 1)).toBe(
        JSON.stringify(explainFeatures(compiled, { userId: 'u' }, { environment })),
      );
    }
    expect(explainFeaturesJson(compiled, {}, { environment: 'dev', projects: ['other'] })).toBe('[]');
  });
});
