import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import { playgroundRequestSchema } from '../../domain/playground.js';
import { explainSelectedJsonChunks } from '../../evaluation/explain-features-json.js';
import type { OperationOutput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import type { EvaluatorCache } from './evaluator-cache.js';
import {
  evaluateAdvancedPlayground,
  evaluatePlayground,
  pagesPlayground,
  preparePlayground,
} from './playground-operations.js';

/** Features per chunk of a streamed answer (a chunk is a few hundred kilobytes). */
const FEATURES_PER_CHUNK = 500;

/**
 * The playground for in-process callers: typed wrappers over the operations in
 * `playground-operations.ts`, and the same answer as UTF-8 JSON in chunks (what HTTP streams).
 */
export function createPlaygroundService(
  deps: ServiceDeps & { evaluators: EvaluatorCache },
  run: OperationRunner,
) {
  /**
   * `JSON.stringify(await evaluate(caller, input))` as UTF-8 bytes: what the HTTP API sends (a
   * thousand features explained are over a megabyte of JSON). Checks (the caller, the body, the
   * environment) are done when this resolves; the bytes come in chunks of a few hundred features,
   * each explained and serialized when it is asked for, so the answer for every one of 50,000
   * features is never one document (nor 50,000 explanation objects) in memory.
   */
  async function evaluateJsonChunks(caller: Caller, input: unknown): Promise<Iterable<Uint8Array>> {
    await deps.policy.require(caller, 'NONE', {});
    const request = parseWith(playgroundRequestSchema, input);
    const { context, selected, page } = await preparePlayground(deps, request, caller.principal);
    return explainSelectedJsonChunks(
      page,
      context,
      request.environment,
      {
        before: `{"input":${JSON.stringify(request)},"features":`,
        after: pagesPlayground(request) ? `,"total":${selected.length}}` : '}',
      },
      FEATURES_PER_CHUNK,
    );
  }

  return {
    /**
     * POST /api/admin/playground/advanced: several environments, contexts with listed values. The
     * input is checked by the operation's schema (callers such as MCP tools pass it untyped).
     */
    evaluateAdvanced: (
      caller: Caller,
      input: unknown,
    ): Promise<OperationOutput<typeof evaluateAdvancedPlayground>> =>
      run.unknown(evaluateAdvancedPlayground, caller, input),

    /**
     * POST /api/admin/playground: every feature of the projects with per-strategy explanations.
     * Only projects the caller may see are evaluated.
     */
    evaluate: (caller: Caller, input: unknown): Promise<OperationOutput<typeof evaluatePlayground>> =>
      run.unknown(evaluatePlayground, caller, input),

    /** `JSON.stringify(await evaluate(caller, input))` as UTF-8 bytes, in one piece (see `evaluateJsonChunks`). */
    async evaluateJson(caller: Caller, input: unknown): Promise<Uint8Array> {
      return Buffer.concat([...(await evaluateJsonChunks(caller, input))]);
    },

    evaluateJsonChunks,
  };
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
