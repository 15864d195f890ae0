// Runs every suite of `@unleash/client-specification` (the Unleash SDK conformance suite) against the
// compiled fast path: `tests` through isEnabled, `variantTests` through getVariant.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta } from './apply-delta.js';
import type { ClientFeatures, ClientFeaturesDeltaEvent } from './client-features.js';
import { compileFeatures } from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';

interface SpecCase<T> {
  description: string;
  context: EvaluationContext;
  toggleName: string;
  expectedResult: T;
}

interface SpecSuite {
  name: string;
  state: ClientFeatures | { events: ClientFeaturesDeltaEvent[] };
  tests?: SpecCase<boolean>[];
  variantTests?: SpecCase<Record<string, unknown>>[];
}

const specDir = join(
  dirname(createRequire(import.meta.url).resolve('@unleash/client-specification/package.json')),
  'specifications',
);
const suiteFiles = JSON.parse(readFileSync(join(specDir, 'index.json'), 'utf8')) as string[];
const suites = suiteFiles.map((file) => JSON.parse(readFileSync(join(specDir, file), 'utf8')) as SpecSuite);

// Delta suites describe their state as events applied to an empty SDK.
function stateOf(suite: SpecSuite): ClientFeatures {
  return 'events' in suite.state ? applyDelta({ features: [] }, suite.state.events) : suite.state;
}

it('loads all 22 suites and 279 cases', () => {
  expect(suites).toHaveLength(22);
  const cases = suites.reduce((sum, s) => sum + (s.tests?.length ?? 0) + (s.variantTests?.length ?? 0), 0);
  expect(cases).toBe(279);
});

describe.each(suites.map((suite) => [suite.name, suite] as const))('%s', (_, suite) => {
  const compiled = compileFeatures(stateOf(suite));

  if (suite.tests?.length) {
    it.each(suite.tests.map((test) => [test.description, test] as const))('%s', (_, test) => {
      expect(compiled.isEnabled(test.toggleName, test.context)).toBe(test.expectedResult);
    });
  }

  if (suite.variantTests?.length) {
    it.each(suite.variantTests.map((test) => [test.description, test] as const))('%s', (_, test) => {
      // The SDK answers with both spellings of the legacy flag; the suite lists only `feature_enabled`.
      expect(compiled.getVariant(test.toggleName, test.context)).toEqual({
        ...test.expectedResult,
        featureEnabled: test.expectedResult['feature_enabled'],
      });
    });
  }
});
