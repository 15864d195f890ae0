import { type Principal, type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import type {
  AdvancedPlaygroundRequest,
  PlaygroundContext,
  PlaygroundFeature,
} from '../../domain/playground.js';
import { FlagstaffError, invalid } from '../../errors.js';
import { explainFeatures } from '../../evaluation/explain-features.js';
import type { ServiceDeps } from '../deps.js';
import type { EvaluatorCache } from './evaluator-cache.js';

/** The most contexts one request may expand to (the product of the listed values). */
export const MAX_PLAYGROUND_CONTEXTS = 1_000;

/** Bounds of one advanced playground request (createFlagstaff's `playgroundLimits`). */
export interface PlaygroundLimits {
  /**
   * Most evaluations (contexts × features × environments) one request may ask for; default 10,000.
   * About a second of CPU and ~10–20 MB of answer with typical features; the reference allows 30,000.
   */
  maxEvaluations?: number;
  /** Most bytes the answer may hold, estimated from the first context's explanations; default 20 MB. */
  maxAnswerBytes?: number;
}

export const DEFAULT_PLAYGROUND_LIMITS: Required<PlaygroundLimits> = {
  maxEvaluations: 10_000,
  maxAnswerBytes: 20_000_000,
};

/** One feature in one environment for one of the expanded contexts. */
export type AdvancedEvaluation = PlaygroundFeature & { context: PlaygroundContext };

export interface AdvancedPlaygroundResponse {
  input: AdvancedPlaygroundRequest;
  features: { name: string; projectId: string; environments: Record<string, AdvancedEvaluation[]> }[];
}

/** Values listed with commas ("1,2,3"), trimmed; a value without commas is itself. */
const valuesOf = (value: string): string[] => {
  const values = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  return values.length > 0 ? values : [value];
};

/**
 * Every context the request's lists stand for: each string field (and property) given as
 * "a,b,c" takes each value in turn, and the contexts are every combination of them.
 * `appName` and `currentTime` are never split. VALIDATION past MAX_PLAYGROUND_CONTEXTS.
 */
export function expandContexts(context: PlaygroundContext): PlaygroundContext[] {
  let contexts: PlaygroundContext[] = [{ ...context, properties: { ...context.properties } }];
  const splitting = (
    key: string,
    values: string[],
    set: (c: PlaygroundContext, v: string) => PlaygroundContext,
  ) => {
    if (values.length < 2) return;
    if (contexts.length * values.length > MAX_PLAYGROUND_CONTEXTS)
      throw invalid(
        `context.${key}`,
        `lists more values than the playground evaluates at once: the contexts would number over ${MAX_PLAYGROUND_CONTEXTS}.`,
      );
    contexts = contexts.flatMap((c) => values.map((v) => set(c, v)));
  };
  for (const [key, value] of Object.entries(context)) {
    if (key === 'appName' || key === 'currentTime' || key === 'properties' || typeof value !== 'string')
      continue;
    splitting(key, valuesOf(value), (c, v) => ({ ...c, [key]: v }));
  }
  for (const [key, value] of Object.entries(context.properties ?? {}))
    splitting(`properties.${key}`, valuesOf(value), (c, v) => ({
      ...c,
      properties: { ...c.properties, [key]: v },
    }));
  return contexts;
}

const visible = (
  requested: readonly string[] | '*',
  visibility: ProjectVisibility,
): readonly string[] | '*' => {
  if (visibility.all) return requested;
  if (requested === '*') return [...visibility.projects];
  return requested.filter((p) => seesProject(visibility, p));
};

/**
 * The advanced playground: every feature of the projects (those the caller may see) in each
 * environment, for every context the request's listed values expand to, each with the explanation
 * the simple playground gives.
 */
export async function evaluateAdvanced(
  deps: Pick<ServiceDeps, 'store'> & { evaluators: EvaluatorCache; limits?: PlaygroundLimits | undefined },
  viewer: Principal,
  request: AdvancedPlaygroundRequest,
): Promise<AdvancedPlaygroundResponse> {
  const limits = { ...DEFAULT_PLAYGROUND_LIMITS, ...deps.limits };
  const contexts = expandContexts(request.context);
  const [revision, visibility] = await Promise.all([
    deps.evaluators.revision(),
    projectVisibility(deps.store, viewer),
  ]);
  for (const [i, name] of request.environments.entries())
    if (!(await deps.store.environments.get(name)))
      throw invalid(`environments[${i}]`, `"${name}" does not exist.`);
  const projects = visible(request.projects, visibility);
  const listed = projects === '*' ? null : new Set(projects);
  const environments = [...new Set(request.environments)];
  const snapshots = await Promise.all(environments.map((e) => deps.evaluators.snapshotAt(e, revision)));
  // Counted before anything is evaluated: the request's cost is this product, and a Viewer may ask.
  const names = new Set<string>();
  let pairs = 0;
  for (const snapshot of snapshots)
    for (const f of snapshot.compiled.features)
      if (listed === null || listed.has(f.project)) {
        names.add(f.name);
        pairs++;
      }
  const evaluations = contexts.length * pairs;
  if (evaluations > limits.maxEvaluations)
    throw new FlagstaffError(
      'LIMIT_EXCEEDED',
      `The playground request would run ${evaluations} evaluations (${contexts.length} contexts × ${pairs} feature-environments: ${names.size} features in ${environments.length} environments); it runs at most ${limits.maxEvaluations} per request. List fewer context values, projects or environments.`,
      { limit: limits.maxEvaluations, count: evaluations },
    );
  const byName = new Map<string, AdvancedPlaygroundResponse['features'][number]>();
  const evaluate = (index: number, context: PlaygroundContext, measure: boolean): number => {
    const environment = environments[index] ?? '';
    const snapshot = snapshots[index];
    if (!snapshot) return 0;
    const evaluated = { ...context, environment: context.environment ?? environment };
    let size = 0;
    for (const feature of explainFeatures(snapshot.compiled, evaluated, { environment, projects })) {
      let entry = byName.get(feature.name);
      if (!entry) {
        entry = { name: feature.name, projectId: feature.projectId, environments: {} };
        byName.set(feature.name, entry);
      }
      const list = entry.environments[environment] ?? [];
      const evaluation = { ...feature, context: evaluated };
      if (measure) size += JSON.stringify(evaluation).length + 1;
      list.push(evaluation);
      entry.environments[environment] = list;
    }
    return size;
  };
  // Explanations weigh what their strategies and constraints list, which counting cannot see: the
  // first context's answer, times the contexts, estimates the whole before the rest is evaluated.
  const [first, ...rest] = contexts;
  if (!first) return { input: request, features: [] };
  const firstSize = environments.reduce((sum, _, i) => sum + evaluate(i, first, true), 0);
  const estimate = JSON.stringify(request).length + firstSize * contexts.length;
  if (estimate > limits.maxAnswerBytes)
    throw new FlagstaffError(
      'LIMIT_EXCEEDED',
      `The playground request would make an answer of about ${estimate} bytes; the playground answers at most ${limits.maxAnswerBytes}. List fewer context values, projects or environments.`,
      { limit: limits.maxAnswerBytes, count: estimate },
    );
  // Environment-major order, as before: each environment's list follows the contexts' order.
  for (const [i] of environments.entries()) for (const context of rest) evaluate(i, context, false);
  return { input: request, features: [...byName.values()] };
}
