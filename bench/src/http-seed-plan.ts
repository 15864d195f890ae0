// The deterministic admin calls that seed 1,000 features: segments, then per feature a create, 1–3
// strategies (with constraints, segments and strategy variants on some), variants on some, and on.
export interface SeedCall {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body?: unknown;
}

/** A small seeded PRNG (mulberry32) so every run seeds the same configuration. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const CONSTRAINTS = [
  { contextName: 'userId', operator: 'IN', values: ['user-1', 'user-17', 'user-99'] },
  { contextName: 'tenant', operator: 'STR_STARTS_WITH', values: ['ac'] },
  { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.9.9' },
  { contextName: 'age', operator: 'NUM_GT', value: '18' },
  { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00.000Z' },
  { contextName: 'email', operator: 'REGEX', value: '@example\\.com$' },
];

export function buildSeedPlan(features = 1000): { features: number; calls: SeedCall[] } {
  const rand = prng(42);
  const calls: SeedCall[] = [];
  const segments = 10;
  for (let s = 0; s < segments; s++)
    calls.push({
      method: 'POST',
      path: '/api/admin/segments',
      body: { name: `segment-${s}`, constraints: [CONSTRAINTS[s % CONSTRAINTS.length]] },
    });
  for (let i = 0; i < features; i++) {
    const name = `feature-${String(i).padStart(4, '0')}`;
    const base = `/api/admin/projects/default/features`;
    calls.push({
      method: 'POST',
      path: base,
      body: { name, type: i % 7 === 0 ? 'experiment' : 'release', description: `Feature ${i}` },
    });
    const strategies = 1 + Math.floor(rand() * 3);
    for (let s = 0; s < strategies; s++) {
      const constraintCount = Math.floor(rand() * 3);
      const constraints = Array.from(
        { length: constraintCount },
        () => CONSTRAINTS[Math.floor(rand() * CONSTRAINTS.length)],
      );
      const withVariants = rand() < 0.2;
      calls.push({
        method: 'POST',
        path: `${base}/${name}/environments/development/strategies`,
        body: {
          name: 'flexibleRollout',
          parameters: { rollout: String(Math.floor(rand() * 101)), stickiness: 'default', groupId: name },
          constraints,
          segments: rand() < 0.15 ? [1 + Math.floor(rand() * segments)] : [],
          variants: withVariants
            ? [
                { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
                { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
              ]
            : [],
        },
      });
    }
    // Environment variants would be the natural call here, but the reference (Unleash 7.5.1) refuses
    // them for new features ("use strategy variants"); a tag keeps the plan the same on both servers.
    if (rand() < 0.25)
      calls.push({
        method: 'POST',
        path: `/api/admin/features/${name}/tags`,
        body: { type: 'simple', value: `tag-${i % 10}` },
      });
    if (rand() < 0.8) calls.push({ method: 'POST', path: `${base}/${name}/environments/development/on` });
  }
  return { features, calls };
}
