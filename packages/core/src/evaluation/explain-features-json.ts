// The playground answer as UTF-8 JSON, in chunks: each chunk's features are explained
// (`explainFeature`), stringified and encoded when the chunk is asked for, so an answer for 50,000
// features is never one document (nor 50,000 explanation objects) in memory at once.
//
// A byte-level serializer (prebuilt fragments per compiled feature, a memo of answers per outcome)
// stood here; measured with `npm run bench -- playground-serializer` at 1,000 features it was 1.04×
// as fast as this once warm and 5× slower on the first call of a revision, while its fragments and
// memo held hundreds of MB at 50,000 features. Issue 20 item 6 kept it only at 2× or better.
import type { CompiledFeature, CompiledFeatureSet } from './compile-features.js';
import type { EvaluationContext } from './evaluation-context.js';
import { type ExplainOptions, explainFeature, selectFeatures } from './explain-features.js';

/** Where the playground answer goes: around the features list, `before` and `after` (JSON text). */
export interface ExplainJsonFrame {
  before: string;
  after: string;
}

const NO_FRAME: ExplainJsonFrame = { before: '', after: '' };

/**
 * `before + JSON.stringify(features explained) + after` as UTF-8 bytes, in pieces of
 * `featuresPerChunk` features (the frame's `before` in the first, `after` in the last). Each chunk is
 * a fresh buffer the consumer owns.
 */
export function* explainSelectedJsonChunks(
  features: readonly CompiledFeature[],
  context: EvaluationContext,
  environment: string,
  frame: ExplainJsonFrame,
  featuresPerChunk: number,
): Generator<Uint8Array> {
  let i = 0;
  do {
    const end = Math.min(features.length, i + featuresPerChunk);
    const parts: string[] = [i === 0 ? `${frame.before}[` : ''];
    for (let k = i; k < end; k++) {
      if (k > 0) parts.push(',');
      parts.push(JSON.stringify(explainFeature(features[k]!, context, environment)));
    }
    if (end === features.length) parts.push(']', frame.after);
    i = end;
    yield Buffer.from(parts.join(''));
  } while (i < features.length);
}

/** `JSON.stringify(explainFeatures(compiled, context, options))`, chunk by chunk (`featuresPerChunk`). */
export function explainFeaturesJson(
  compiled: CompiledFeatureSet,
  context: EvaluationContext,
  options: ExplainOptions,
  featuresPerChunk = Infinity,
): string {
  const features = selectFeatures(compiled, options);
  const chunks = explainSelectedJsonChunks(
    features,
    context,
    options.environment,
    NO_FRAME,
    featuresPerChunk,
  );
  return Buffer.concat([...chunks]).toString('utf8');
}
