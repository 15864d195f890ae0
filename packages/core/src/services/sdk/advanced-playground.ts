import type { Caller } from '../../auth/caller.js';
import { type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { parseWith } from '../../domain/parse.js';
import {
  type AdvancedPlaygroundRequest,
  advancedPlaygroundRequestSchema,
  type PlaygroundContext,
  type PlaygroundFeature,
} from '../../domain/playground.js';
import { invalid } from '../../errors.js';
import { explainFeatures } from '../../evaluation/explain-features.js';
import type { ServiceDeps } from '../deps.js';
import type { EvaluatorCache } from './evaluator-cache.js';

/** The most contexts one request may expand to (the product of the listed values). */
export const MAX_PLAYGROUND_CONTEXTS = 1_000;

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
  deps: ServiceDeps & { evaluators: EvaluatorCache },
  caller: Caller,
  input: unknown,
): Promise<AdvancedPlaygroundResponse> {
  await deps.policy.require(caller, 'NONE', {});
  const request = parseWith(advancedPlaygroundRequestSchema, input);
  const contexts = expandContexts(request.context);
  const [revision, visibility] = await Promise.all([
    deps.evaluators.revision(),
    projectVisibility(deps.store, caller.principal),
  ]);
  for (const [i, name] of request.environments.entries())
    if (!(await deps.store.environments.get(name)))
      throw invalid(`environments[${i}]`, `"${name}" does not exist.`);
  const projects = visible(request.projects, visibility);
  const byName = new Map<string, AdvancedPlaygroundResponse['features'][number]>();
  for (const environment of new Set(request.environments)) {
    const snapshot = await deps.evaluators.snapshotAt(environment, revision);
    for (const context of contexts) {
      const evaluated = { ...context, environment: context.environment ?? environment };
      for (const feature of explainFeatures(snapshot.compiled, evaluated, { environment, projects })) {
        let entry = byName.get(feature.name);
        if (!entry) {
          entry = { name: feature.name, projectId: feature.projectId, environments: {} };
          byName.set(feature.name, entry);
        }
        const list = entry.environments[environment] ?? [];
        list.push({ ...feature, context: evaluated });
        entry.environments[environment] = list;
      }
    }
  }
  return { input: request, features: [...byName.values()] };
}
