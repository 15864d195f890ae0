import { createHash } from 'node:crypto';
import type { VariantResult } from '../domain/variant.js';
import type { ClientFeature, ClientFeatures } from '../evaluation/client-features.js';
import type { CompiledFeatureSet } from '../evaluation/compile-features.js';
import type { EvaluationContext } from '../evaluation/evaluation-context.js';
import type { ServiceDeps } from './deps.js';
import type { EnvironmentSnapshot, EvaluatorCache } from './evaluator-cache.js';

/** What an SDK token may see: its projects (`*` for all) in one environment. */
export interface ClientScope {
  projects: readonly string[];
  environment: string;
}

/** Filters SDKs may add to `GET /api/client/features`. */
export interface ClientFeaturesQuery {
  project?: string[] | undefined;
  namePrefix?: string | undefined;
  inlineSegmentConstraints?: boolean | undefined;
}

export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: VariantResult & { feature_enabled: boolean; featureEnabled: boolean };
  impressionData: boolean;
}

/**
 * SDKs never see disabled strategies. SDKs treat an enabled feature with no strategy as on, so a
 * feature whose strategies are all disabled is sent as off: disabling the last strategy must not
 * turn a feature on for everyone.
 */
const withoutDisabledStrategies = (f: ClientFeature): ClientFeature => {
  const strategies = f.strategies.filter((s) => !s.disabled).map(({ disabled: _d, ...s }) => s);
  return { ...f, enabled: f.enabled && (strategies.length > 0 || f.strategies.length === 0), strategies };
};

/** The SDK-facing API: client features with ETags, frontend evaluation, and in-process evaluation. */
export function createClientService(deps: ServiceDeps & { evaluators: EvaluatorCache }) {
  const { evaluators } = deps;
  const responses = new WeakMap<EnvironmentSnapshot, Map<string, { body: ClientFeatures; etag: string }>>();

  /** `*` means the first environment: client tokens for all environments read the default one. */
  async function environmentOf(scope: ClientScope): Promise<string> {
    if (scope.environment !== '*') return scope.environment;
    return (await deps.store.environments.list())[0]?.name ?? 'development';
  }

  const inScope = (scope: ClientScope, query: ClientFeaturesQuery) => (f: ClientFeature) =>
    (scope.projects.includes('*') || scope.projects.includes(f.project ?? 'default')) &&
    (!query.project?.length || query.project.includes(f.project ?? 'default')) &&
    (!query.namePrefix || f.name.startsWith(query.namePrefix));

  return {
    /** GET /api/client/features: the body and its ETag (revision + query), cached per revision. */
    async features(
      scope: ClientScope,
      query: ClientFeaturesQuery = {},
    ): Promise<{ body: ClientFeatures; etag: string }> {
      const environment = await environmentOf(scope);
      const snapshot = await evaluators.snapshot(environment);
      const normalizedQuery = {
        project: query.project?.length ? [...query.project].sort() : undefined,
        namePrefix: query.namePrefix,
        environment,
        scope: [...scope.projects].sort(),
      };
      const queryHash = createHash('sha256')
        .update(JSON.stringify(normalizedQuery))
        .digest('hex')
        .slice(0, 8);
      let byQuery = responses.get(snapshot);
      if (!byQuery) {
        byQuery = new Map();
        responses.set(snapshot, byQuery);
      }
      const cached = byQuery.get(queryHash);
      if (cached) return cached;
      const etag = `"${queryHash}:${snapshot.revision}"`;
      const body: ClientFeatures = {
        version: 2,
        features: snapshot.payload.features.filter(inScope(scope, query)).map(withoutDisabledStrategies),
        segments: snapshot.payload.segments ?? [],
        query: {
          ...(query.project ? { project: query.project } : {}),
          ...(query.namePrefix ? { namePrefix: query.namePrefix } : {}),
          environment,
        },
        meta: { revisionId: snapshot.revision, etag, queryHash },
      };
      const result = { body, etag };
      byQuery.set(queryHash, result);
      return result;
    },

    /** GET|POST /api/frontend: features that are on for the context, with their variants. */
    async frontend(scope: ClientScope, context: EvaluationContext): Promise<{ toggles: FrontendToggle[] }> {
      const environment = await environmentOf(scope);
      const { compiled } = await evaluators.snapshot(environment);
      const all = scope.projects.includes('*');
      const toggles: FrontendToggle[] = [];
      for (const feature of compiled.features) {
        if (!all && !scope.projects.includes(feature.project)) continue;
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
    },

    /**
     * The compiled flags of an environment for in-process evaluation: call `isEnabled` and
     * `getVariant` on the result synchronously; call this again to pick up later changes.
     */
    async evaluator(environment: string): Promise<CompiledFeatureSet> {
      return (await evaluators.snapshot(environment)).compiled;
    },

    /** One-shot in-process check of a flag in an environment. */
    async isEnabled(environment: string, name: string, context: EvaluationContext = {}): Promise<boolean> {
      return (await evaluators.snapshot(environment)).compiled.isEnabled(name, context);
    },

    /** One-shot in-process variant of a flag in an environment. */
    async getVariant(
      environment: string,
      name: string,
      context: EvaluationContext = {},
    ): Promise<Readonly<VariantResult>> {
      return (await evaluators.snapshot(environment)).compiled.getVariant(name, context);
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;
