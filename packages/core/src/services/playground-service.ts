import { parseWith } from '../domain/parse.js';
import {
  type PlaygroundRequest,
  type PlaygroundResponse,
  playgroundRequestSchema,
} from '../domain/playground.js';
import { FlagstaffError } from '../errors.js';
import type { EvaluationContext } from '../evaluation/evaluation-context.js';
import { explainFeatures } from '../evaluation/explain-features.js';
import { explainFeaturesJsonBytes } from '../evaluation/explain-features-json.js';
import type { ServiceDeps } from './deps.js';
import type { EnvironmentSnapshot, EvaluatorCache } from './evaluator-cache.js';

/** The playground: explains how a context evaluates against every feature of an environment. */
export function createPlaygroundService(deps: ServiceDeps & { evaluators: EvaluatorCache }) {
  async function prepare(
    input: unknown,
  ): Promise<{ request: PlaygroundRequest; snapshot: EnvironmentSnapshot; context: EvaluationContext }> {
    const request = parseWith(playgroundRequestSchema, input);
    // Both reads at once (two round trips to a database server become one).
    const [environment, revision] = await Promise.all([
      deps.store.environments.get(request.environment),
      deps.evaluators.revision(),
    ]);
    if (!environment)
      throw new FlagstaffError('VALIDATION', `"environment" "${request.environment}" does not exist.`, {
        path: 'environment',
      });
    const snapshot = await deps.evaluators.snapshotAt(request.environment, revision);
    const context = { ...request.context, environment: request.context.environment ?? request.environment };
    return { request, snapshot, context };
  }

  return {
    /** POST /api/admin/playground: every feature of the projects with per-strategy explanations. */
    async evaluate(input: unknown): Promise<PlaygroundResponse> {
      const { request, snapshot, context } = await prepare(input);
      const features = explainFeatures(snapshot.compiled, context, {
        environment: request.environment,
        projects: request.projects,
      });
      return { input: request, features };
    },

    /**
     * `JSON.stringify(await evaluate(input))` as UTF-8 bytes, copied from fragments serialized once
     * per configuration revision: what the HTTP API sends (a thousand features explained are over a
     * megabyte of JSON).
     */
    async evaluateJson(input: unknown): Promise<Uint8Array> {
      const { request, snapshot, context } = await prepare(input);
      return explainFeaturesJsonBytes(
        snapshot.compiled,
        context,
        { environment: request.environment, projects: request.projects },
        { before: `{"input":${JSON.stringify(request)},"features":`, after: '}' },
      );
    },
  };
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
