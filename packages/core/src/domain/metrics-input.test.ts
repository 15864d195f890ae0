import { describe, expect, it } from 'vitest';
import { createRandom } from '../testing/flag-set.js';
import { clientMetricsSchema } from './metrics.js';
import { readClientMetrics } from './metrics-input.js';

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  -1,
  0,
  1,
  2.5,
  2 ** 53,
  Number.NaN,
  '',
  '7',
  'x',
  true,
  [],
  [1],
  {},
  { a: 1 },
];

/** A metrics body, valid or with one part swapped for something odd. */
function body(rand: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const odd = () => (rand() < 0.15 ? pick(ODD_VALUES) : undefined);
  const count = () => (rand() < 0.1 ? pick(ODD_VALUES) : Math.floor(rand() * 100));
  const toggles: Record<string, unknown> = {};
  const n = Math.floor(rand() * 6);
  for (let i = 0; i < n; i++) {
    const counts: Record<string, unknown> = {};
    if (rand() < 0.8) counts.yes = count();
    if (rand() < 0.8) counts.no = count();
    if (rand() < 0.3) counts.variants = rand() < 0.8 ? { a: count(), b: count() } : pick(ODD_VALUES);
    if (rand() < 0.1) counts.extra = 'stripped';
    toggles[rand() < 0.05 ? '__proto__' : `f-${i}`] = rand() < 0.05 ? pick(ODD_VALUES) : counts;
  }
  const value: Record<string, unknown> = {
    appName: rand() < 0.1 ? pick(ODD_VALUES) : 'app',
    bucket: {
      start: rand() < 0.1 ? pick(ODD_VALUES) : '2026-01-01T00:00:00.000Z',
      ...(rand() < 0.7 ? { stop: rand() < 0.1 ? pick(ODD_VALUES) : '2026-01-01T00:01:00.000Z' } : {}),
      toggles: rand() < 0.05 ? pick(ODD_VALUES) : toggles,
    },
  };
  if (rand() < 0.3) value.instanceId = odd() ?? 'i-1';
  if (rand() < 0.3) value.environment = odd() ?? 'production';
  if (rand() < 0.1) value.sdkVersion = 'unleash-client-node:6.12.1';
  return rand() < 0.03 ? pick(ODD_VALUES) : value;
}

const outcome = (read: () => unknown) => {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
};

describe('readClientMetrics', () => {
  it('answers exactly as the schema does, accepted or refused, on 5,000 generated bodies', () => {
    const rand = createRandom(20261124);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const input = body(rand);
      const fast = outcome(() => readClientMetrics(input));
      const schema = clientMetricsSchema.safeParse(input);
      expect(fast.ok, JSON.stringify(input)).toBe(schema.success);
      if (schema.success) {
        accepted++;
        expect(fast.value).toEqual(schema.data);
      }
    }
    // Both kinds were exercised.
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan(4500);
  });

  it('names the property a refused body got wrong', () => {
    expect(() =>
      readClientMetrics({ appName: 'a', bucket: { start: 's', toggles: { f: { yes: -1 } } } }),
    ).toThrow(/bucket\.toggles\.f\.yes/);
  });
});
