// A deterministic, realistic-looking flag configuration for evaluation benchmarks: every strategy and
// operator family, segments, rollouts, variants with overrides and payloads, a few dependencies.
// Everything random-by-design (random stickiness, gradualRolloutRandom) is pinned to 0% or 100%, and
// every context carries the fields stickiness reads, so two engines must agree on every answer.
import type {
  ClientConstraint,
  ClientFeature,
  ClientFeatures,
  ClientSegment,
  ClientStrategy,
  ClientVariant,
  EvaluationContext,
} from '../index.js';

/** mulberry32: tiny seeded PRNG, enough to make the set reproducible. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const COUNTRIES = ['NO', 'SE', 'DK', 'DE', 'FR', 'US', 'BR', 'JP'];
const PLANS = ['free', 'pro', 'team', 'enterprise'];
const VERSIONS = ['1.0.0', '1.2.3', '2.0.0-beta.1', '2.0.0', '2.1.4', '3.0.0-rc.2', '10.4.1'];

function constraint(random: Random): ClientConstraint {
  const inverted = random() < 0.15;
  const caseInsensitive = random() < 0.3;
  switch (int(random, 0, 8)) {
    case 0:
      return {
        contextName: 'country',
        operator: pick(random, ['IN', 'NOT_IN']),
        values: COUNTRIES.filter(() => random() < 0.4),
        inverted,
      };
    case 1:
      return {
        contextName: 'userId',
        operator: 'IN',
        values: Array.from({ length: int(random, 1, 20) }, () => `user-${int(random, 0, 200)}`),
        inverted,
      };
    case 2:
      return {
        contextName: 'email',
        operator: pick(random, ['STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS']),
        values: pick(random, [['@example.com'], ['@ACME.io', '@corp.net'], ['admin', 'qa'], ['user-1']]),
        caseInsensitive,
        inverted,
      };
    case 3:
      return {
        contextName: 'age',
        operator: pick(random, ['NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE']),
        value: String(int(random, 15, 70)),
        inverted,
      };
    case 4:
      return {
        contextName: 'currentTime',
        operator: pick(random, ['DATE_AFTER', 'DATE_BEFORE']),
        value: pick(random, [
          '2020-06-01T00:00:00.000Z',
          '2024-03-15T12:00:00.000Z',
          '2035-01-01T00:00:00.000Z',
        ]),
        inverted,
      };
    case 5:
      return {
        contextName: 'appVersion',
        operator: pick(random, ['SEMVER_EQ', 'SEMVER_GT', 'SEMVER_GTE', 'SEMVER_LT', 'SEMVER_LTE']),
        value: pick(random, VERSIONS),
        inverted,
      };
    case 6:
      return {
        contextName: 'email',
        operator: 'REGEX',
        value: pick(random, ['^user-[0-9]+@', 'example\\.(com|org)$', '(qa|admin)[0-9]*@']),
        caseInsensitive,
        inverted,
      };
    case 7:
      return {
        contextName: 'remoteAddress',
        operator: 'IN_CIDR',
        values: pick(random, [
          ['10.0.0.0/8'],
          ['192.168.1.0/24', '172.16.0.0/12'],
          ['2001:db8::/32'],
          ['10.1.2.3'],
        ]),
        inverted,
      };
    default:
      return {
        contextName: 'plan',
        operator: 'IN',
        values: PLANS.filter(() => random() < 0.5),
        caseInsensitive,
        inverted,
      };
  }
}

function variants(random: Random, withOverrides: boolean): ClientVariant[] {
  const count = int(random, 2, 4);
  const stickiness = pick(random, ['default', 'default', 'sessionId', 'country']);
  return Array.from({ length: count }, (_, i) => {
    const variant: ClientVariant = {
      name: `v${i}`,
      weight: Math.floor(1000 / count),
      weightType: 'variable',
      stickiness,
    };
    if (random() < 0.5) variant.payload = { type: 'json', value: JSON.stringify({ variant: i }) };
    if (withOverrides && i === 0 && random() < 0.3)
      variant.overrides = [{ contextName: 'userId', values: ['user-7', 'user-42'] }];
    return variant;
  });
}

function strategy(
  random: Random,
  featureName: string,
  index: number,
  segmentIds: readonly number[],
  hostname: string,
): ClientStrategy {
  const roll = random();
  const rollout = String(pick(random, [0, 5, 10, 25, 50, 75, 100]));
  let name: string;
  let parameters: Record<string, string>;
  if (roll < 0.5) {
    const stickiness = pick(random, ['default', 'default', 'userId', 'sessionId', 'country', 'random']);
    name = 'flexibleRollout';
    parameters = {
      rollout: stickiness === 'random' ? pick(random, ['0', '100']) : rollout,
      stickiness,
      groupId: featureName,
    };
  } else if (roll < 0.6) [name, parameters] = ['default', {}];
  else if (roll < 0.68)
    [name, parameters] = [
      'userWithId',
      { userIds: Array.from({ length: 5 }, () => `user-${int(random, 0, 100)}`).join(', ') },
    ];
  else if (roll < 0.75)
    [name, parameters] = ['gradualRolloutUserId', { percentage: rollout, groupId: featureName }];
  else if (roll < 0.8)
    [name, parameters] = ['gradualRolloutSessionId', { percentage: rollout, groupId: featureName }];
  else if (roll < 0.84)
    [name, parameters] = ['gradualRolloutRandom', { percentage: pick(random, ['0', '100']) }];
  else if (roll < 0.9)
    [name, parameters] = [
      'remoteAddress',
      { IPs: pick(random, ['10.0.0.1, 10.0.0.2', '192.168.0.0/16', '127.0.0.1']) },
    ];
  else if (roll < 0.95)
    [name, parameters] = [
      'applicationHostname',
      { hostNames: pick(random, [`${hostname},other-host`, 'some-other-host']) },
    ];
  else [name, parameters] = ['myCustomStrategy', { anything: 'x' }];

  const result: ClientStrategy = {
    id: `${featureName}-s${index}`,
    name,
    sortOrder: index,
    parameters,
    constraints: Array.from({ length: int(random, 0, 2) }, () => constraint(random)),
  };
  if (segmentIds.length > 0 && random() < 0.2) result.segments = [pick(random, segmentIds)];
  if (random() < 0.15) result.variants = variants(random, false);
  return result;
}

/** The flag set and contexts; `hostname` is what applicationHostname strategies sometimes match. */
export function generateFlagSet(options: {
  flags: number;
  contexts: number;
  seed: number;
  hostname: string;
}): {
  payload: ClientFeatures;
  contexts: EvaluationContext[];
} {
  const random = createRandom(options.seed);
  const segments: ClientSegment[] = Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    name: `segment-${i + 1}`,
    constraints: Array.from({ length: int(random, 1, 2) }, () => constraint(random)),
  }));
  const segmentIds = segments.map((segment) => segment.id);

  const features: ClientFeature[] = [];
  for (let i = 0; i < options.flags; i++) {
    const name = `flag-${String(i).padStart(4, '0')}`;
    const feature: ClientFeature = {
      name,
      enabled: random() < 0.9,
      project: pick(random, ['default', 'web', 'mobile']),
      type: 'release',
      stale: false,
      impressionData: false,
      strategies: Array.from({ length: int(random, 1, 3) }, (_, s) =>
        strategy(random, name, s, segmentIds, options.hostname),
      ),
      variants: random() < 0.3 ? variants(random, true) : [],
    };
    // A few children of earlier flags that have no parents themselves.
    const parent = features[int(random, 0, Math.max(0, i - 1))];
    if (i > 10 && random() < 0.03 && parent && !parent.dependencies) {
      feature.dependencies = [
        pick(random, [
          { feature: parent.name },
          { feature: parent.name, enabled: false },
          { feature: parent.name, variants: ['v0', 'v1'] },
        ]),
      ];
    }
    features.push(feature);
  }

  const contexts = generateContexts({ count: options.contexts, seed: options.seed + 1 });
  return { payload: { version: 2, features, segments }, contexts };
}

/**
 * Evaluation contexts. By default identities come from small pools, as returning users do; with
 * `uniqueFrom` every user, session, e-mail, address and time is new, so no per-value memo can help.
 */
export function generateContexts(options: {
  count: number;
  seed: number;
  uniqueFrom?: number;
}): EvaluationContext[] {
  const random = createRandom(options.seed);
  return Array.from({ length: options.count }, (_, i): EvaluationContext => {
    const n = options.uniqueFrom === undefined ? undefined : options.uniqueFrom + i;
    const context: EvaluationContext = {
      appName: 'flagstaff-bench',
      environment: 'default',
      sessionId: `session-${n ?? int(random, 0, 10_000)}`,
      remoteAddress:
        n === undefined
          ? pick(random, [
              '10.0.0.1',
              '10.20.30.40',
              '192.168.1.77',
              '172.16.5.4',
              '127.0.0.1',
              '2001:db8::42',
              '8.8.8.8',
            ])
          : `10.${(n >> 8) & 255}.${n & 255}.${int(random, 1, 254)}`,
      properties: {
        country: pick(random, COUNTRIES),
        email:
          n === undefined
            ? pick(random, [
                `user-${i}@example.com`,
                `qa${i}@ACME.io`,
                'admin@corp.net',
                'someone@example.org',
              ])
            : `user-${n}@${pick(random, ['example.com', 'ACME.io', 'corp.net'])}`,
        age: String(int(random, 10, 80)),
        appVersion: pick(random, VERSIONS),
        plan: pick(random, PLANS),
      },
    };
    // Most contexts identify a user; the rest rely on the session for stickiness.
    if (random() < 0.8) context.userId = `user-${n ?? int(random, 0, 200)}`;
    if (random() < 0.5) {
      context.currentTime =
        n === undefined
          ? pick(random, ['2023-01-01T00:00:00.000Z', '2025-06-30T08:00:00.000Z'])
          : new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
    }
    return context;
  });
}
