import { createHash } from 'node:crypto';
import type { VariantResult } from '../../domain/variant.js';
import type { ClientFeatures } from '../../evaluation/client-features.js';
import type { CompiledFeatureSet } from '../../evaluation/compile-features.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';

export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: VariantResult & { feature_enabled: boolean; featureEnabled: boolean };
  impressionData: boolean;
}

/** What, besides the configuration and the context, a frontend answer may depend on. */
interface Dependence {
  /** DATE_* constraints read the clock when the context has no `currentTime`. */
  clock: boolean;
  /** `random` stickiness and gradualRolloutRandom draw anew on every evaluation. */
  random: boolean;
  /** `default` stickiness falls back to a random draw when the context has no userId or sessionId. */
  identity: boolean;
}

const dependences = new WeakMap<ClientFeatures, Dependence>();

function dependenceOf(payload: ClientFeatures): Dependence {
  let found = dependences.get(payload);
  if (found) return found;
  found = { clock: false, random: false, identity: false };
  const stickiness = (value: string | undefined) => {
    if (value === 'random') found!.random = true;
    else if (value === undefined || value === 'default') found!.identity = true;
  };
  const constraints = (list: readonly { operator: string }[]) => {
    for (const c of list) if (c.operator.startsWith('DATE_')) found!.clock = true;
  };
  for (const segment of payload.segments ?? []) constraints(segment.constraints ?? []);
  for (const feature of payload.features) {
    for (const s of feature.strategies) {
      constraints(s.constraints ?? []);
      if (s.name === 'gradualRolloutRandom') found.random = true;
      if (s.name === 'flexibleRollout') stickiness(s.parameters.stickiness);
      for (const v of s.variants ?? []) stickiness(v.stickiness);
    }
    for (const v of feature.variants ?? []) stickiness(v.stickiness);
  }
  dependences.set(payload, found);
  return found;
}

/**
 * The ETag of a frontend answer (revision, token scope, context), or null when the answer may differ
 * between two identical requests (a random draw, the clock): a 304 must never freeze one of those.
 */
export function frontendEtag(
  payload: ClientFeatures,
  revision: number,
  scopeKey: string,
  context: EvaluationContext,
): string | null {
  const dependence = dependenceOf(payload);
  if (dependence.random) return null;
  if (dependence.clock && context.currentTime === undefined) return null;
  if (dependence.identity && context.userId === undefined && context.sessionId === undefined) return null;
  const hash = createHash('sha256').update(scopeKey).update('\u0000').update(stableJson(context));
  return `"${hash.digest('hex').slice(0, 16)}:${revision}"`;
}

/** JSON with object keys sorted, so the same context always hashes the same. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** The features that are on for a context, with their variants (the frontend API's answer). */
export function frontendToggles(
  compiled: CompiledFeatureSet,
  projects: readonly string[],
  context: EvaluationContext,
): { toggles: FrontendToggle[] } {
  const all = projects.includes('*');
  const toggles: FrontendToggle[] = [];
  for (const feature of compiled.features) {
    if (!all && !projects.includes(feature.project)) continue;
    if (!compiled.isEnabled(feature.name, context)) continue;
    const variant = compiled.getVariant(feature.name, context);
    toggles.push({
      name: feature.name,
      enabled: true,
      variant: { ...variant, feature_enabled: true, featureEnabled: true },
      impressionData: feature.source.impressionData === true,
    });
  }
  return { toggles };
}
