import { type Principal, type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import {
  advancedPlaygroundRequestSchema,
  advancedPlaygroundResponseSchema,
  type PlaygroundRequest,
  playgroundRequestSchema,
  playgroundResponseSchema,
} from '../../domain/playground.js';
import { FlagstaffError } from '../../errors.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';
import { explainFeatures, selectFeatures } from '../../evaluation/explain-features.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ServiceDeps } from '../deps.js';
import { evaluateAdvanced } from './advanced-playground.js';
import type { EnvironmentSnapshot, EvaluatorCache } from './evaluator-cache.js';

/**
 * The projects to evaluate: the requested ones the viewer may see. `*` stays `*` for a viewer who
 * sees everything and becomes the visible projects otherwise; a hidden project named in the list
 * is dropped, so it evaluates like a project that does not exist (no features).
 */
function visibleProjects(
  requested: PlaygroundRequest['projects'],
  visibility: ProjectVisibility,
): readonly string[] | '*' {
  if (visibility.all) return requested;
  if (requested === '*') return [...visibility.projects];
  return requested.filter((p) => seesProject(visibility, p));
}

/** Whether the request asks for a page (the answer then says how many features match in `total`). */
export const pagesPlayground = (request: PlaygroundRequest): boolean =>
  request.query !== undefined || request.offset !== undefined || request.limit !== undefined;

/** What one playground request evaluates: the environment's snapshot, the context, the selected page. */
export async function preparePlayground(
  deps: Pick<ServiceDeps, 'store'> & { evaluators: EvaluatorCache },
  request: PlaygroundRequest,
  viewer: Principal,
) {
  // The reads at once (round trips to a database server overlap).
  const [environment, revision, visibility] = await Promise.all([
    deps.store.environments.get(request.environment),
    deps.evaluators.revision(),
    projectVisibility(deps.store, viewer),
  ]);
  if (!environment)
    throw new FlagstaffError('VALIDATION', `"environment" "${request.environment}" does not exist.`, {
      path: 'environment',
    });
  const snapshot: EnvironmentSnapshot = await deps.evaluators.snapshotAt(request.environment, revision);
  const context: EvaluationContext = {
    ...request.context,
    environment: request.context.environment ?? request.environment,
  };
  const selected = selectFeatures(snapshot.compiled, {
    environment: request.environment,
    projects: visibleProjects(request.projects, visibility),
    query: request.query,
  });
  const offset = request.offset ?? 0;
  return {
    snapshot,
    context,
    selected,
    page: selected.slice(offset, offset + (request.limit ?? selected.length)),
  };
}

/**
 * Explains how a context evaluates against every feature of an environment (of the projects the
 * caller may see), strategy by strategy; `query`, `offset` and `limit` page the features.
 */
export const evaluatePlayground = defineOperation({
  id: 'playground.evaluate',
  summary: 'Evaluate a context against features',
  kind: 'read',
  permission: 'NONE',
  input: playgroundRequestSchema,
  output: playgroundResponseSchema,
  run: async (request, { deps, caller }) => {
    const { snapshot, context, selected, page } = await preparePlayground(deps, request, caller.principal);
    const features = explainFeatures({ ...snapshot.compiled, features: page }, context, {
      environment: request.environment,
    });
    return pagesPlayground(request)
      ? { input: request, features, total: selected.length }
      : { input: request, features };
  },
});

/**
 * Several environments, for every context the request's listed values ("1,2,3") expand to; bounded
 * by the playground limits (LIMIT_EXCEEDED past them).
 */
export const evaluateAdvancedPlayground = defineOperation({
  id: 'playground.evaluateAdvanced',
  summary:
    'Evaluate features in several environments for every context the listed values ("1,2,3") expand to',
  kind: 'read',
  permission: 'NONE',
  input: advancedPlaygroundRequestSchema,
  output: advancedPlaygroundResponseSchema,
  run: (request, { deps, caller }) =>
    evaluateAdvanced({ ...deps, limits: deps.playgroundLimits }, caller.principal, request),
});

/** Every playground operation, for route tables and tools. */
export const playgroundOperations = [evaluatePlayground, evaluateAdvancedPlayground] as const;
