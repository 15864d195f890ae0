// Evaluation benchmark: Flagstaff's compiled fast path against the official `unleash-client` SDK on
// the same deterministic 1,000-flag set × 64 contexts, plus one playground explanation of every flag.
// Both engines are first checked to give the same answers for the whole set.
import { hostname as osHostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compileFeatures, type EvaluationContext, explainFeatures } from '@flagstaff/core';
import { type Context, InMemStorageProvider, Unleash, type Variant } from 'unleash-client';
import { generateContexts, generateFlagSet } from '../flagset/generate-flag-set.js';

const FLAGS = 1_000;
const CONTEXTS = 64;
const SEED = 20_240_611;

type Evaluate = (name: string, context: EvaluationContext) => boolean;
type Order = 'sweep' | 'hot';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// The checksum keeps the JIT from discarding calls whose answers nobody reads.
let sink = 0;

// `sweep`: each context against every flag in turn, as one request evaluating all flags does (the
// whole compiled set streams through the CPU caches once per context). `hot`: each flag against
// every context in turn, as a flag checked request after request is (its closures stay cached).
function pass(
  names: readonly string[],
  contexts: readonly EvaluationContext[],
  evaluate: Evaluate,
  order: Order,
) {
  const start = performance.now();
  if (order === 'sweep') {
    for (const context of contexts) for (const name of names) if (evaluate(name, context)) sink++;
  } else {
    for (const name of names) for (const context of contexts) if (evaluate(name, context)) sink++;
  }
  return performance.now() - start;
}

/** Median ns per flag×context over timed passes (one context list each), after untimed warm-ups. */
function nsPerEvaluation(
  names: readonly string[],
  contextLists: readonly (readonly EvaluationContext[])[],
  evaluate: Evaluate,
  order: Order,
  warmups: number,
): number {
  for (let i = 0; i < warmups; i++) pass(names, contextLists[i % contextLists.length]!, evaluate, order);
  const times = contextLists.map((contexts) => pass(names, contexts, evaluate, order));
  return (median(times) * 1e6) / (names.length * contextLists[0]!.length);
}

async function startSdk(payload: ReturnType<typeof generateFlagSet>['payload']): Promise<Unleash> {
  // refreshInterval 0 makes the SDK's poller return before sending any request (and nothing listens
  // on port 9): the bootstrap data is all it ever evaluates.
  const unleash = new Unleash({
    url: 'http://127.0.0.1:9/api',
    appName: 'flagstaff-bench',
    environment: 'default',
    disableMetrics: true,
    refreshInterval: 0,
    bootstrap: { data: payload.features as never, segments: payload.segments as never },
    storageProvider: new InMemStorageProvider(),
  });
  unleash.on('warn', () => {}); // unknown (custom) strategies are warned about; expected here
  unleash.on('error', (error) => console.error('unleash-client error:', error));
  await new Promise<void>((resolve) => unleash.once('ready', () => resolve()));
  return unleash;
}

function sameVariant(a: { name: string; enabled: boolean; payload?: unknown }, b: Variant): boolean {
  return (
    a.name === b.name && a.enabled === b.enabled && JSON.stringify(a.payload) === JSON.stringify(b.payload)
  );
}

const ns = (value: number) => `${value.toFixed(0)} ns`.padStart(9);

export default async function evaluationBench(): Promise<void> {
  const hostname = (process.env['HOSTNAME'] || osHostname() || 'undefined').toLowerCase();
  const { payload, contexts } = generateFlagSet({ flags: FLAGS, contexts: CONTEXTS, seed: SEED, hostname });
  const names = payload.features.map((feature) => feature.name);
  const total = names.length * contexts.length;

  const compileStart = performance.now();
  const compiled = compileFeatures(payload, { hostname });
  const compileMs = performance.now() - compileStart;
  const sdk = await startSdk(payload);
  const sdkContext = (context: EvaluationContext) => context as Context;

  let [agreeEnabled, agreeVariant, on] = [0, 0, 0];
  for (const context of contexts) {
    for (const name of names) {
      const enabled = compiled.isEnabled(name, context);
      if (enabled) on++;
      if (enabled === sdk.isEnabled(name, sdkContext(context))) agreeEnabled++;
      if (sameVariant(compiled.getVariant(name, context), sdk.getVariant(name, sdkContext(context))))
        agreeVariant++;
    }
  }

  const engines = {
    flagstaff: {
      isEnabled: ((n, c) => compiled.isEnabled(n, c)) as Evaluate,
      getVariant: ((n, c) => compiled.getVariant(n, c).enabled) as Evaluate,
      repetitions: 15,
      // Enough passes for the JIT, and for the freshly compiled set to be promoted out of the young
      // generation (until then every scavenge copies it, inside the timed passes).
      warmups: 10,
    },
    'unleash-client': {
      isEnabled: ((n, c) => sdk.isEnabled(n, sdkContext(c))) as Evaluate,
      getVariant: ((n, c) => sdk.getVariant(n, sdkContext(c)).enabled) as Evaluate,
      repetitions: 5,
      warmups: 2,
    },
  };
  const results = new Map<string, { isEnabled: number; getVariant: number }>();
  for (const order of ['sweep', 'hot'] as const) {
    for (const [engine, { isEnabled, getVariant, repetitions, warmups }] of Object.entries(engines)) {
      const lists = Array.from({ length: repetitions }, () => contexts);
      results.set(`${engine} ${order}`, {
        isEnabled: nsPerEvaluation(names, lists, isEnabled, order, warmups),
        getVariant: nsPerEvaluation(names, lists, getVariant, order, warmups),
      });
    }
  }
  sdk.destroy();

  // Every context new: per-value memos (regex results, parsed versions, addresses, times) all miss.
  const unseen = (from: number) =>
    Array.from({ length: 15 }, (_, i) =>
      generateContexts({ count: CONTEXTS, seed: SEED + from + i, uniqueFrom: 1e6 + (from + i) * CONTEXTS }),
    );
  results.set('flagstaff sweep, unseen contexts', {
    isEnabled: nsPerEvaluation(names, unseen(0), engines.flagstaff.isEnabled, 'sweep', 0),
    getVariant: nsPerEvaluation(names, unseen(15), engines.flagstaff.getVariant, 'sweep', 0),
  });

  const playgroundTimes: number[] = [];
  for (let i = 0; i < 150; i++) {
    const start = performance.now();
    sink += explainFeatures(compiled, contexts[0]!, { environment: 'development' }).length;
    if (i >= 50) playgroundTimes.push(performance.now() - start);
  }

  console.log(
    `flag set: ${FLAGS} flags × ${CONTEXTS} contexts (seed ${SEED}); ${on}/${total} evaluations on`,
  );
  console.log(`compile: ${compileMs.toFixed(1)} ms`);
  console.log(
    `agreement with unleash-client: isEnabled ${agreeEnabled}/${total}, getVariant ${agreeVariant}/${total}`,
  );
  console.log('median ns per flag×context                 isEnabled getVariant  both (sum)');
  for (const [label, { isEnabled, getVariant }] of results) {
    console.log(`  ${label.padEnd(40)} ${ns(isEnabled)} ${ns(getVariant)} ${ns(isEnabled + getVariant)}`);
  }
  for (const order of ['sweep', 'hot'] as const) {
    const ours = results.get(`flagstaff ${order}`)!;
    const theirs = results.get(`unleash-client ${order}`)!;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`.padStart(9);
    console.log(
      `  speed-up over unleash-client, ${order.padEnd(10)} ${ratio(theirs.isEnabled, ours.isEnabled)} ${ratio(theirs.getVariant, ours.getVariant)} ${ratio(theirs.isEnabled + theirs.getVariant, ours.isEnabled + ours.getVariant)}`,
    );
  }
  console.log(
    `playground: explain all ${FLAGS} flags for one context, median ${median(playgroundTimes).toFixed(2)} ms`,
  );
  if (sink === -1) console.log(sink);
}
