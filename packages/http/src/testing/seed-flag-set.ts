import type { ClientFeatures } from '@flagstaff/core';
import { generateFlagSet } from '@flagstaff/core/testing/flag-set';
import type { HttpResult, RequestOptions } from './harness.js';

type Request = (method: string, path: string, options?: RequestOptions) => Promise<HttpResult>;

const ok = (what: string, res: HttpResult): HttpResult => {
  if (res.status >= 300) throw new Error(`${what} → ${res.status} ${res.text}`);
  return res;
};

/**
 * Creates a generated client-API configuration through the admin API, in the development
 * environment: projects, segments, features with strategies, variants, dependencies and state.
 * Strategy and segment ids are the server's; everything SDKs evaluate is the generated one.
 */
export async function seedFlagSet(request: Request, payload: ClientFeatures): Promise<void> {
  const projects = new Set(payload.features.map((f) => f.project ?? 'default'));
  for (const id of projects) {
    if (id === 'default') continue;
    ok(`project ${id}`, await request('POST', '/api/admin/projects', { body: { id, name: id } }));
    // A new project may not use the development environment yet.
    const env = await request('POST', `/api/admin/projects/${id}/environments`, {
      body: { environment: 'development' },
    });
    if (env.status >= 300 && env.status !== 409) ok(`environment of ${id}`, env);
  }
  const segmentIds = new Map<number, number>();
  for (const segment of payload.segments ?? []) {
    const res = ok(
      `segment ${segment.id}`,
      await request('POST', '/api/admin/segments', {
        body: { name: segment.name ?? `segment-${segment.id}`, constraints: segment.constraints },
      }),
    );
    segmentIds.set(segment.id, res.body.id);
  }
  for (const feature of payload.features) {
    const base = `/api/admin/projects/${feature.project ?? 'default'}/features`;
    const at = `${base}/${feature.name}/environments/development`;
    ok(feature.name, await request('POST', base, { body: { name: feature.name, type: feature.type } }));
    for (const strategy of feature.strategies) {
      ok(
        `${feature.name} strategy`,
        await request('POST', `${at}/strategies`, {
          body: {
            name: strategy.name,
            parameters: strategy.parameters,
            constraints: strategy.constraints,
            segments: (strategy.segments ?? []).map((id) => segmentIds.get(id)),
            variants: strategy.variants ?? [],
          },
        }),
      );
    }
    if (feature.variants?.length)
      ok(`${feature.name} variants`, await request('PUT', `${at}/variants`, { body: feature.variants }));
    for (const dependency of feature.dependencies ?? [])
      ok(
        `${feature.name} dependency`,
        await request('POST', `${base}/${feature.name}/dependencies`, { body: dependency }),
      );
    if (feature.enabled) ok(`${feature.name} on`, await request('POST', `${at}/on`));
  }
}

/**
 * A generated configuration `seedFlagSet` can create through the admin API, with contexts to
 * evaluate it on: dependencies stay within a project (a child moves into its parent's), and
 * `applicationHostname` names a host no machine has, so an SDK evaluating it on its own host agrees
 * with the playground, which cannot know that host.
 */
export function generateSeedableFlagSet(options: { flags: number; contexts: number; seed: number }) {
  const set = generateFlagSet({ ...options, hostname: 'no-such-host.invalid' });
  const projectOf = new Map(set.payload.features.map((f) => [f.name, f.project]));
  for (const f of set.payload.features) {
    const parent = f.dependencies?.[0]?.feature;
    if (parent) f.project = projectOf.get(parent);
  }
  return set;
}
