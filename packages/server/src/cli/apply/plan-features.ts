import type { ApiClient } from '../api-client.js';
import {
  constraintBody,
  fileParameters,
  normFileStrategy,
  normServerStrategy,
  normVariant,
  same,
  variantBody,
} from './normalize.js';
import type { SegmentIds, Step } from './plan.js';
import type { ApplyFile, FileFeature, FileStrategy } from './schema.js';
import { describedProjects, type ServerFeature, type ServerState } from './state.js';

const enc = encodeURIComponent;
const done = () => {};

function strategyBody(s: FileStrategy, feature: string, sortOrder: number, ids: SegmentIds) {
  return {
    name: s.name,
    title: s.title ?? null,
    disabled: s.disabled,
    sortOrder,
    parameters: fileParameters(s, feature),
    constraints: s.constraints.map(constraintBody),
    // Resolved when the step runs: a segment the plan creates has its id by then.
    segments: s.segments.map((name) => ids.get(name) ?? -1),
    variants: s.variants.map(variantBody),
  };
}

function planMetadata(
  feature: FileFeature,
  current: ServerFeature | undefined,
  api: ApiClient,
  base: string,
): Step[] {
  const target = `feature ${feature.project}/${feature.name}`;
  const steps: Step[] = [];
  const meta = {
    type: feature.type ?? current?.type ?? 'release',
    description: feature.description !== undefined ? feature.description : (current?.description ?? null),
    impressionData: feature.impressionData ?? current?.impressionData ?? false,
  };
  if (!current)
    steps.push({
      op: 'create',
      target,
      run: () => api.request('POST', `${base}/features`, { name: feature.name, ...meta }).then(done),
    });
  else if (
    current.type !== meta.type ||
    (current.description ?? null) !== meta.description ||
    current.impressionData !== meta.impressionData
  )
    steps.push({
      op: 'update',
      target,
      run: () =>
        api
          .request('PUT', `${base}/features/${enc(feature.name)}`, { name: feature.name, ...meta })
          .then(done),
    });
  if (feature.stale !== undefined && feature.stale !== (current?.stale ?? false))
    steps.push({
      op: 'update',
      target,
      detail: `stale: ${feature.stale}`,
      run: () =>
        api.request('POST', `${base}/stale`, { features: [feature.name], stale: feature.stale }).then(done),
    });
  if (feature.tags) {
    const key = (t: { type: string; value: string }) => `${t.type}:${t.value}`;
    const have = new Map((current?.tags ?? []).map((t) => [key(t), t]));
    const want = new Map(feature.tags.map((t) => [key(t), t]));
    const tags = `/api/admin/features/${enc(feature.name)}/tags`;
    for (const [k, tag] of want)
      if (!have.has(k))
        steps.push({
          op: 'create',
          target: `tag ${k} on ${target}`,
          run: () => api.request('POST', tags, tag).then(done),
        });
    for (const [k, tag] of have)
      if (!want.has(k))
        steps.push({
          op: 'delete',
          target: `tag ${k} on ${target}`,
          run: () => api.request('DELETE', `${tags}/${enc(tag.type)}/${enc(tag.value)}`).then(done),
        });
  }
  return steps;
}

function planEnvironment(
  feature: FileFeature,
  envName: string,
  current: ServerFeature | undefined,
  api: ApiClient,
  ids: SegmentIds,
): Step[] {
  const config = feature.environments[envName]!;
  const env = current?.environments.find((e) => e.name === envName);
  const base = `/api/admin/projects/${enc(feature.project)}/features/${enc(feature.name)}/environments/${enc(envName)}`;
  const at = `${feature.project}/${feature.name}@${envName}`;
  const steps: Step[] = [];
  if (config.strategies) {
    const have = [...(env?.strategies ?? [])].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
    const names = new Map([...ids].map(([name, id]) => [id, name]));
    const segmentName = (id: number) => names.get(id) ?? `#${id}`;
    config.strategies.forEach((s, i) => {
      const existing = have[i];
      if (!existing)
        steps.push({
          op: 'create',
          target: `strategy ${at}[${i}]`,
          detail: s.name,
          run: () =>
            api.request('POST', `${base}/strategies`, strategyBody(s, feature.name, i, ids)).then(done),
        });
      else if (!same(normFileStrategy(s, feature.name), normServerStrategy(existing, segmentName)))
        steps.push({
          op: 'update',
          target: `strategy ${at}[${i}]`,
          detail: s.name,
          run: () =>
            api
              .request('PUT', `${base}/strategies/${enc(existing.id)}`, strategyBody(s, feature.name, i, ids))
              .then(done),
        });
    });
    for (const [i, extra] of have.entries())
      if (i >= config.strategies.length)
        steps.push({
          op: 'delete',
          target: `strategy ${at}[${i}]`,
          detail: extra.name,
          run: () => api.request('DELETE', `${base}/strategies/${enc(extra.id)}`).then(done),
        });
  }
  if (config.variants && !same(config.variants.map(normVariant), (env?.variants ?? []).map(normVariant)))
    steps.push({
      op: 'update',
      target: `variants ${at}`,
      detail: config.variants.map((v) => v.name).join(', ') || '(none)',
      run: () => api.request('PUT', `${base}/variants`, config.variants?.map(variantBody)).then(done),
    });
  // Last: enabling an environment without strategies gives it the default one.
  if (config.enabled !== undefined && config.enabled !== (env?.enabled ?? false))
    steps.push({
      op: 'update',
      target: `environment ${at}`,
      detail: config.enabled ? 'enable' : 'disable',
      run: () => api.request('POST', `${base}/${config.enabled ? 'on' : 'off'}`).then(done),
    });
  return steps;
}

/** Feature changes: metadata, tags, then per environment strategies, variants and the switch; prune last. */
export function planFeatures(
  file: ApplyFile,
  state: ServerState,
  api: ApiClient,
  ids: SegmentIds,
  prune: boolean,
): Step[] {
  const steps: Step[] = [];
  for (const feature of file.features) {
    const current = state.features.get(feature.project)?.find((f) => f.name === feature.name);
    const base = `/api/admin/projects/${enc(feature.project)}`;
    steps.push(...planMetadata(feature, current, api, base));
    for (const envName of Object.keys(feature.environments))
      steps.push(...planEnvironment(feature, envName, current, api, ids));
  }
  if (!prune) return steps;
  const listed = new Set(file.features.map((f) => `${f.project}/${f.name}`));
  for (const project of describedProjects(file))
    for (const feature of state.features.get(project) ?? [])
      if (!listed.has(`${project}/${feature.name}`))
        steps.push({
          op: 'archive',
          target: `feature ${project}/${feature.name}`,
          run: () =>
            api
              .request('DELETE', `/api/admin/projects/${enc(project)}/features/${enc(feature.name)}`)
              .then(done),
        });
  return steps;
}
