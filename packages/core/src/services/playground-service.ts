import { parseWith } from '../domain/parse.js';
import { type PlaygroundResponse, playgroundRequestSchema } from '../domain/playground.js';
import { FlagstaffError } from '../errors.js';
import { explainFeatures } from '../evaluation/explain-features.js';
import type { ServiceDeps } from './deps.js';
import type { EvaluatorCache } from './evaluator-cache.js';

/** The playground: explains how a context evaluates against every feature of an environment. */
export function createPlaygroundService(deps: ServiceDeps & { evaluators: EvaluatorCache }) {
  return {
    /** POST /api/admin/playground: every feature of the projects with per-strategy explanations. */
    async evaluate(input: unknown): Promise<PlaygroundResponse> {
      const request = parseWith(playgroundRequestSchema, input);
      if (!(await deps.store.environments.get(request.environment)))
        throw new FlagstaffError('VALIDATION', `"environment" "${request.environment}" does not exist.`, {
          path: 'environment',
        });
      const snapshot = await deps.evaluators.snapshot(request.environment);
      const context = { ...request.context, environment: request.context.environment ?? request.environment };
      const features = explainFeatures(snapshot.compiled, context, {
        environment: request.environment,
        projects: request.projects,
      });
      return { input: request, features };
    },
  };
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
