import type { Caller } from '../../auth/caller.js';
import { type Principal, type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { parseWith } from '../../domain/parse.js';
import {
  type PlaygroundRequest,
  type PlaygroundResponse,
  playgroundRequestSchema,
} from '../../domain/playground.js';
import { FlagstaffError } from '../../errors.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';
import { explainFeatures, selectFeatures } from '../../evaluation/explain-features.js';
import { explainSelectedJsonChunks } from '../../evaluation/explain-features-json.js';
import type { ServiceDeps } from '../deps.js';
import { evaluateAdvanced, type PlaygroundLimits } from './advanced-playground.js';
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

/** Features per chunk of a streamed answer (a chunk is a few hundred kilobytes). */
const FEATURES_PER_CHUNK = 500;

const pages = (request: PlaygroundRequest): boolean =>
  request.query !== undefined || request.offset !== undefined || request.limit !== undefined;

/** The features the request selects (projects, name), and the page of them it asks for. */
function pageOf(
  request: PlaygroundRequest,
  snapshot: EnvironmentSnapshot,
  projects: readonly string[] | '*',
) {
  const selected = selectFeatures(snapshot.compiled, {
    environment: request.environment,
    projects,
    query: request.query,
  });
  const offset = request.offset ?? 0;
  return { selected, page: selected.slice(offset, offset + (request.limit ?? selected.length)) };
}

/** The playground: explains how a context evaluates against every feature of an environment. */
export function createPlaygroundService(
  deps: ServiceDeps & { evaluators: EvaluatorCache; limits?: PlaygroundLimits },
) {
  async function prepare(
    input: unknown,
    viewer: Principal,
  ): Promise<{
    request: PlaygroundRequest;
    snapshot: EnvironmentSnapshot;
    context: EvaluationContext;
    projects: readonly string[] | '*';
  }> {
    const request = parseWith(playgroundRequestSchema, input);
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
    const snapshot = await deps.evaluators.snapshotAt(request.environment, revision);
    const context = { ...request.context, environment: request.context.environment ?? request.environment };
    return { request, snapshot, context, projects: visibleProjects(request.projects, visibility) };
  }

  /**
   * `JSON.stringify(await evaluate(caller, input))` as UTF-8 bytes, copied from fragments
   * serialized once per configuration revision: what the HTTP API sends (a thousand features
   * explained are over a megabyte of JSON). Checks (the caller, the body, the environment) are
   * done when this resolves; the bytes come in chunks of a few hundred features, each made when it
   * is asked for, so the answer for every one of 50,000 features is never one document in memory.
   */
  async function evaluateJsonChunks(caller: Caller, input: unknown): Promise<Iterable<Uint8Array>> {
    await deps.policy.require(caller, 'NONE', {});
    const { request, snapshot, context, projects } = await prepare(input, caller.principal);
    const { selected, page } = pageOf(request, snapshot, projects);
    return explainSelectedJsonChunks(
      page,
      context,
      request.environment,
      {
        before: `{"input":${JSON.stringify(request)},"features":`,
        after: pages(request) ? `,"total":${selected.length}}` : '}',
      },
      FEATURES_PER_CHUNK,
    );
  }

  return {
    /** POST /api/admin/playground/advanced: several environments, contexts with listed values. */
    evaluateAdvanced: (caller: Caller, input: unknown) => evaluateAdvanced(deps, caller, input),

    /**
     * POST /api/admin/playground: every feature of the projects with per-strategy explanations.
     * Only projects the caller may see are evaluated.
     */
    async evaluate(caller: Caller, input: unknown): Promise<PlaygroundResponse> {
      await deps.policy.require(caller, 'NONE', {});
      const { request, snapshot, context, projects } = await prepare(input, caller.principal);
      const { selected, page } = pageOf(request, snapshot, projects);
      const features = explainFeatures({ ...snapshot.compiled, features: page }, context, {
        environment: request.environment,
      });
      return pages(request)
        ? { input: request, features, total: selected.length }
        : { input: request, features };
    },

    /** `JSON.stringify(await evaluate(caller, input))` as UTF-8 bytes, in one piece (see `evaluateJsonChunks`). */
    async evaluateJson(caller: Caller, input: unknown): Promise<Uint8Array> {
      const chunks = [...(await evaluateJsonChunks(caller, input))];
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      return bytes;
    },

    evaluateJsonChunks,
  };
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
