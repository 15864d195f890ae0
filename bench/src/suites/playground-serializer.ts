// The playground's answer at 1,000 features, to its last byte, two ways: the byte-level serializer
// (packages/core/src/evaluation/explain-features-json.ts: prebuilt UTF-8 fragments per compiled
// feature and a memo of whole answers per outcome) against building the explanation objects
// (`explainFeatures`) and `JSON.stringify` + UTF-8 encoding them, in one piece and in chunks of 500
// features (how the service streams). Issue 20 item 6: the byte serializer stays only if it is at
// least 2× faster. Both are first checked to give the same bytes. The features are the scale
// suite's (a flexible rollout with a userId constraint each, half of them on), in one configuration
// revision: "warm" runs every context against the same compiled features (templates and memo
// built), "cold" compiles afresh before each run (outside the timing), so the templates are built
// in the timed call. Printed, never asserted (BENCH_PLAYGROUND_FEATURES, default 1000).
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

function bytesOf(compiled: CompiledFeatureSet, context: EvaluationContext): Uint8Array[] {
  const frame = { before: `{"input":${JSON.stringify(request(context))},"features":`, after: '}' };
  return [...explainSelectedJsonChunks(compiled.features, context, ENVIRONMENT, frame, PER_CHUNK)];
}

function objectsWhole(compiled: CompiledFeatureSet, context: EvaluationContext): Uint8Array[] {
  const features = explainFeatures(compiled, context, { environment: ENVIRONMENT });
  return [Buffer.from(JSON.stringify({ input: request(context), features }))];
}

/** As the service would stream them: each chunk's features explained, stringified and encoded. */
function objectsChunked(compiled: CompiledFeatureSet, context: EvaluationContext): Uint8Array[] {
  const out: Uint8Array[] = [];
  const all = compiled.features;
  for (let at = 0; at < all.length; at += PER_CHUNK) {
    const page = all.slice(at, at + PER_CHUNK);
    const json = JSON.stringify(
      explainFeatures({ ...compiled, features: page }, context, { environment: ENVIRONMENT }),
    );
    const head = at === 0 ? `{"input":${JSON.stringify(request(context))},"features":[` : ',';
    const tail = at + PER_CHUNK >= all.length ? ']}' : '';
    out.push(Buffer.from(head + json.slice(1, -1) + tail));
  }
  return out;
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
    if (join(bytesOf(compiled, context)) !== expected || join(objectsChunked(compiled, context)) !== expected)
      throw new Error('the serializers disagree');
  }
  const size = objectsWhole(compiled, contexts[0]!)[0]!.length;
  console.log(`answer ${(size / 1e6).toFixed(2)} MB; median of ${ROUNDS} rounds × ${contexts.length} contexts`);
  for (const fresh of [false, true]) {
    const bytes = time(fresh, bytesOf);
    const whole = time(fresh, objectsWhole);
    const chunked = time(fresh, objectsChunked);
    const label = fresh ? 'cold (new revision)' : 'warm (same revision)';
    console.log(
      `${label.padEnd(22)} byte serializer ${bytes.toFixed(2)} ms | explainFeatures + JSON.stringify ${whole.toFixed(2)} ms (${(whole / bytes).toFixed(2)}×) | chunked by ${PER_CHUNK} ${chunked.toFixed(2)} ms (${(chunked / bytes).toFixed(2)}×)`,
    );
  }
}
