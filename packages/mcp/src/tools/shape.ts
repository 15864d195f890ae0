import type { FeatureStrategy, FeatureView } from '@flagstaff/core';

/** A strategy as an assistant needs it: no ids of the feature it belongs to, no timestamps. */
export const strategyShape = (s: FeatureStrategy) => ({
  id: s.id,
  name: s.name,
  title: s.title,
  disabled: s.disabled,
  parameters: s.parameters,
  constraints: s.constraints,
  segments: s.segments,
  variants: s.variants,
});

/** A flag with its environments, strategies and variants. */
export const featureShape = (f: FeatureView) => ({
  name: f.name,
  project: f.project,
  type: f.type,
  description: f.description,
  stale: f.stale,
  archived: f.archived,
  createdAt: f.createdAt,
  lastSeenAt: f.lastSeenAt,
  lifecycle: f.lifecycle.stage,
  tags: f.tags.map((t) => `${t.type}:${t.value}`),
  dependencies: f.dependencies,
  children: f.children,
  ...(f.links ? { links: f.links } : {}),
  environments: f.environments.map((e) => ({
    name: e.name,
    type: e.type,
    enabled: e.enabled,
    strategies: e.strategies.map(strategyShape),
    variants: e.variants,
  })),
});

/** One line per environment: `production: on (2 strategies)`. */
export const environmentsLine = (f: FeatureView): string =>
  f.environments
    .map((e) => `${e.name}: ${e.enabled ? 'on' : 'off'} (${e.strategies.length} strategies)`)
    .join(', ');
