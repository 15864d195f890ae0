// The playground's answer at 1,000 features, to its last byte: as the service streams it
// (explainSelectedJsonChunks, packages/core/src/evaluation/explain-features-json.ts: each chunk of
// 500 features explained, stringified and encoded when asked for) against building every
// explanation object (`explainFeatures`) and `JSON.stringify` + UTF-8 encoding them in one piece.
// Both are first checked to give the same bytes. Issue 20 item 6: a byte-level serializer (prebuilt
// UTF-8 fragments per compiled feature, a memo of answers per outcome) stood in the streamed path,
// to stay only at 2x or better; this suite measured it at 1.04x warm and 0.19x on a new revision
// (commit "bench: playground-serializer"), and it was removed. The features are the scale suite's
// (a flexible rollout with a userId constraint each, half of them on): "warm" runs every context
// against the same compiled features, "cold" compiles afresh before each run (outside the timing).
// Printed, never asserted (BENCH_PLAYGROUND_FEATURES, default 1000).
import { performance } from 'node:perf_hooks';
import type { ClientFeatures } from '../../../packages/core/src/evaluation/client-features.js';
import {
  type CompiledFeatureSet,
  compileFeatures,
} from '../../../packages/core/src/evaluation/compile-features.js';
import type { EvaluationContext } from '../../../packages/core/src/evaluation/evaluation-context.js';
import { explainFeatures } from '../../../packages/core/src/evaluation/explain-features.js';
import { explainSelectedJsonChunks } from '../../../packages/core/src/evaluation/explain-features-json.js';

const COUNT = Number(process.env.BENCH_PLAYGROUND_FEATURES ?? 1000);
const ROUNDS = 15;
const PER_CHUNK = 500;
const ENVIRONMENT = 'development';

function payload(count: number): ClientFeatures {
  return {
    version: 2,
    features: Array.from({ length: count }, (_, i) => {
      const name = `bulk-feature-${String(i).padStart(5, '0')}`;
      return {
        name,
        enabled: i % 2 === 0,
        project: 'default',
        type: 'release',
        description: `Imported feature ${name}`,
        stale: false,
        impressionData: false,
        strategies: [
          {
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            name: 'flexibleRollout',
            title: null,
            disabled: false,
            sortOrder: 0,
            parameters: { rollout: String(i % 100), stickiness: 'default', groupId: name },
            constraints: [{ contextName: 'userId', operator: 'IN', values: [`${i}`, `${i + 1}`] }],
            segments: [],
            variants: [],
          },
        ],
        variants: [],
        dependencies: [],
      };
    }),
    segments: [],
  };
}

const contexts: EvaluationContext[] = Array.from({ length: 8 }, (_, i) => ({
  appName: 'playground',
  environment: ENVIRONMENT,
  userId: String(i * 7),
  properties: {},
}));

const request = (context: EvaluationContext) => ({ projects: '*', environment: ENVIRONMENT, context });

function streamed(compiled: CompiledFeatureSet, context: EvaluationContext): Uint8Array[] {
  const frame = { before: `{"input":${JSON.stringify(request(context))},"features":`, after: '}' };
  return [...explainSelectedJsonChunks(compiled.features, context, ENVIRONMENT, frame, PER_CHUNK)];
}

function objectsWhole(compiled: CompiledFeatureSet, context: EvaluationContext): Uint8Array[] {
  const features = explainFeatures(compiled, context, { environment: ENVIRONMENT });
  return [Buffer.from(JSON.stringify({ input: request(context), features }))];
}

const join = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString();

/** Median ms of one whole answer (every context once per round, averaged). */
function time(fresh: boolean, run: (c: CompiledFeatureSet, x: EvaluationContext) => Uint8Array[]) {
  const input = payload(COUNT);
  let compiled = compileFeatures(input);
  run(compiled, contexts[0]!); // warm the code
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let total = 0;
    for (const context of contexts) {
      if (fresh) compiled = compileFeatures(input);
      const t = performance.now();
      run(compiled, context);
      total += performance.now() - t;
    }
    rounds.push(total / contexts.length);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)]!;
}

export default async function playgroundSerializer(): Promise<void> {
  console.log(`\n# playground answer to the last byte, ${COUNT.toLocaleString('en')} features`);
  const compiled = compileFeatures(payload(COUNT));
  for (const context of contexts) {
    const expected = join(objectsWhole(compiled, context));
    if (join(streamed(compiled, context)) !== expected) throw new Error('the serializers disagree');
  }
  const size = objectsWhole(compiled, contexts[0]!)[0]!.length;
  console.log(
    `answer ${(size / 1e6).toFixed(2)} MB; median of ${ROUNDS} rounds × ${contexts.length} contexts`,
  );
  for (const fresh of [false, true]) {
    const bytes = time(fresh, streamed);
    const whole = time(fresh, objectsWhole);
    const label = fresh ? 'cold (new revision)' : 'warm (same revision)';
    console.log(
      `${label.padEnd(22)} streamed in chunks of ${PER_CHUNK} ${bytes.toFixed(2)} ms | explainFeatures + JSON.stringify whole ${whole.toFixed(2)} ms (${(whole / bytes).toFixed(2)}×)`,
    );
  }
}
