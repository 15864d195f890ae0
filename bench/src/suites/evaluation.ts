// Evaluation benchmark: Flagstaff's compiled fast path against the official `unleash-client` SDK on
// the same deterministic 1,000-flag set × 64 contexts, plus one playground explanation of every flag.
// Both engines are checked to give the same answers for the whole set before anything is timed.
import { hostname as osHostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  type CompiledFeatureSet,
  compileFeatures,
  type EvaluationContext,
  explainFeatures,
} from '@flagstaff/core';
import { type Context, InMemStorageProvider, Unleash, type Variant } from 'unleash-client';
import { generateFlagSet } from '../flagset/generate-flag-set.js';

const FLAGS = 1_000;
const CONTEXTS = 64;
const SEED = 20_240_611;

interface Engine {
  isEnabled(name: string, context: EvaluationContext): boolean;
  getVariant(name: string, context: EvaluationContext): { name: string; enabled: boolean; payload?: unknown };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// One pass evaluates every flag for every context (context-major, as a request handler would). The
// checksum keeps the JIT from discarding the calls.
let sink = 0;
function pass(
  names: readonly string[],
  contexts: readonly EvaluationContext[],
  evaluate: (name: string, context: EvaluationContext) => boolean,
): number {
  const start = performance.now();
  for (const context of contexts) {
    for (const name of names) if (evaluate(name, context)) sink++;
  }
  return performance.now() - start;
}

/** Median ns per flag×context over `repetitions` timed passes, after `warmups` untimed ones. */
function timePerEvaluation(
  names: readonly string[],
  contexts: readonly EvaluationContext[],
  evaluate: (name: string, context: EvaluationContext) => boolean,
  warmups: number,
  repetitions: number,
): number {
  for (let i = 0; i < warmups; i++) pass(names, contexts, evaluate);
  const times = Array.from({ length: repetitions }, () => pass(names, contexts, evaluate));
  return (median(times) * 1e6) / (names.length * contexts.length);
}

async function startSdk(payload: ReturnType<typeof generateFlagSet>['payload']): Promise<Unleash> {
  // refreshInterval 0 makes the SDK's poller return before any request, and the port is closed
  // anyway; the bootstrap data is all it ever sees.
  const unleash = new Unleash({
    url: 'http://127.0.0.1:9/api',
    appName: 'flagstaff-bench',
    environment: 'default',
    disableMetrics: true,
    refreshInterval: 0,
    bootstrap: { data: payload.features as never, segments: payload.segments as never },
    storageProvider: new InMemStorageProvider(),
  });
  // Unknown strategies are reported as warnings; they are expected here.
  unleash.on('warn', () => {});
  unleash.on('error', (error) => console.error('unleash-client error:', error));
  await new Promise<void>((resolve) => unleash.once('ready', () => resolve()));
  return unleash;
}

function sameVariant(a: ReturnType<Engine['getVariant']>, b: Variant): boolean {
  return (
    a.name === b.name &&
    a.enabled === b.enabled &&
    JSON.stringify(a.payload ?? null) === JSON.stringify(b.payload ?? null)
  );
}

export default async function evaluationBench(): Promise<void> {
  const hostname = (process.env['HOSTNAME'] || osHostname() || 'undefined').toLowerCase();
  const { payload, contexts } = generateFlagSet({ flags: FLAGS, contexts: CONTEXTS, seed: SEED, hostname });
  const names = payload.features.map((feature) => feature.name);

  const compileStart = performance.now();
  const compiled: CompiledFeatureSet = compileFeatures(payload, { hostname });
  const compileMs = performance.now() - compileStart;
  const sdk = await startSdk(payload);

  let agreeEnabled = 0;
  let agreeVariant = 0;
  let enabledCount = 0;
  for (const context of contexts) {
    for (const name of names) {
      const enabled = compiled.isEnabled(name, context);
      if (enabled) enabledCount++;
      if (enabled === sdk.isEnabled(name, context as Context)) agreeEnabled++;
      if (sameVariant(compiled.getVariant(name, context), sdk.getVariant(name, context as Context)))
        agreeVariant++;
    }
  }
  const total = names.length * contexts.length;

  const flagstaffEnabled = timePerEvaluation(names, contexts, (n, c) => compiled.isEnabled(n, c), 3, 15);
  const flagstaffVariant = timePerEvaluation(
    names,
    contexts,
    (n, c) => compiled.getVariant(n, c).enabled,
    3,
    15,
  );
  const sdkEnabled = timePerEvaluation(names, contexts, (n, c) => sdk.isEnabled(n, c as Context), 1, 5);
  const sdkVariant = timePerEvaluation(
    names,
    contexts,
    (n, c) => sdk.getVariant(n, c as Context).enabled,
    1,
    5,
  );
  sdk.destroy();

  const playgroundContext = contexts[0]!;
  const playgroundTimes: number[] = [];
  for (let i = 0; i < 40; i++) {
    const start = performance.now();
    const explained = explainFeatures(compiled, playgroundContext, { environment: 'development' });
    const elapsed = performance.now() - start;
    sink += explained.length;
    if (i >= 10) playgroundTimes.push(elapsed);
  }

  const flagstaffBoth = flagstaffEnabled + flagstaffVariant;
  const sdkBoth = sdkEnabled + sdkVariant;
  const ns = (value: number) => `${value.toFixed(1)} ns`;
  console.log(
    `flag set: ${FLAGS} flags × ${CONTEXTS} contexts (seed ${SEED}); ${enabledCount}/${total} evaluations on`,
  );
  console.log(`compile: ${compileMs.toFixed(1)} ms`);
  console.log(
    `agreement with unleash-client: isEnabled ${agreeEnabled}/${total}, getVariant ${agreeVariant}/${total}`,
  );
  console.log('median ns per flag×context  isEnabled   getVariant  both (isEnabled + getVariant)');
  console.log(
    `  flagstaff                 ${ns(flagstaffEnabled).padEnd(11)} ${ns(flagstaffVariant).padEnd(11)} ${ns(flagstaffBoth)}`,
  );
  console.log(
    `  unleash-client            ${ns(sdkEnabled).padEnd(11)} ${ns(sdkVariant).padEnd(11)} ${ns(sdkBoth)}`,
  );
  console.log(
    `  speed-up                  ${(sdkEnabled / flagstaffEnabled).toFixed(1).padEnd(11)} ${(sdkVariant / flagstaffVariant).toFixed(1).padEnd(11)} ${(sdkBoth / flagstaffBoth).toFixed(1)}×`,
  );
  console.log(
    `playground: explain all ${FLAGS} flags for one context: median ${median(playgroundTimes).toFixed(2)} ms`,
  );
  if (sink === -1) console.log(sink);
}
