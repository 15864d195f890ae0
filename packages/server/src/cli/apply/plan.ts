import type { ApiClient } from '../api-client.js';
import { CliError } from '../io.js';
import { constraintBody, normConstraint, same } from './normalize.js';
import { planFeatures } from './plan-features.js';
import type { ApplyFile } from './schema.js';
import type { ServerState } from './state.js';

/** One change of the plan: printed first, then run in order. */
export interface Step {
  op: 'create' | 'update' | 'delete' | 'archive';
  /** What is changed, e.g. `feature default/checkout` or `strategy default/checkout@production[0]`. */
  target: string;
  /** What changes, when it is not obvious from the op (e.g. `enabled: false → true`). */
  detail?: string;
  run(): Promise<void>;
}

/** Ids of segments by name, completed as the plan creates segments. */
export type SegmentIds = Map<string, number>;

const enc = encodeURIComponent;

function planEnvironments(file: ApplyFile, state: ServerState, api: ApiClient): Step[] {
  return file.environments.flatMap((env): Step[] => {
    const current = state.environments.get(env.name);
    const body = {
      name: env.name,
      type: env.type,
      ...(env.sortOrder !== undefined ? { sortOrder: env.sortOrder } : {}),
    };
    if (!current)
      return [
        {
          op: 'create',
          target: `environment ${env.name}`,
          run: () => api.request('POST', '/api/admin/environments', body).then(() => {}),
        },
      ];
    if (current.type === env.type && (env.sortOrder === undefined || env.sortOrder === current.sortOrder))
      return [];
    return [
      {
        op: 'update',
        target: `environment ${env.name}`,
        run: () =>
          api
            .request('PUT', `/api/admin/environments/update/${enc(env.name)}`, {
              type: env.type,
              sortOrder: env.sortOrder ?? current.sortOrder,
            })
            .then(() => {}),
      },
    ];
  });
}

function planProjects(file: ApplyFile, state: ServerState, api: ApiClient): Step[] {
  return file.projects.flatMap((project): Step[] => {
    const current = state.projects.get(project.id);
    const steps: Step[] = [];
    const name = project.name ?? current?.name ?? project.id;
    const description =
      project.description !== undefined ? project.description : (current?.description ?? null);
    if (!current)
      steps.push({
        op: 'create',
        target: `project ${project.id}`,
        run: () =>
          api.request('POST', '/api/admin/projects', { id: project.id, name, description }).then(() => {}),
      });
    else if (current.name !== name || (current.description ?? null) !== description)
      steps.push({
        op: 'update',
        target: `project ${project.id}`,
        run: () =>
          api
            .request('PUT', `/api/admin/projects/${enc(project.id)}`, { id: project.id, name, description })
            .then(() => {}),
      });
    // A new project gets every environment; only an existing one is checked for missing ones.
    const enabled = state.projectEnvironments.get(project.id);
    for (const env of current && enabled ? (project.environments ?? []) : []) {
      if (enabled?.has(env)) continue;
      steps.push({
        op: 'create',
        target: `environment ${env} in project ${project.id}`,
        run: () =>
          api
            .request('POST', `/api/admin/projects/${enc(project.id)}/environments`, { environment: env })
            .then(() => {}),
      });
    }
    return steps;
  });
}

function planContextFields(file: ApplyFile, state: ServerState, api: ApiClient): Step[] {
  return file.contextFields.flatMap((field): Step[] => {
    const current = state.contextFields.get(field.name);
    const wanted = {
      name: field.name,
      description: field.description ?? current?.description ?? '',
      stickiness: field.stickiness ?? current?.stickiness ?? false,
      legalValues: field.legalValues ?? current?.legalValues ?? [],
    };
    if (!current)
      return [
        {
          op: 'create',
          target: `context field ${field.name}`,
          run: () => api.request('POST', '/api/admin/context', wanted).then(() => {}),
        },
      ];
    const now = {
      name: current.name,
      description: current.description ?? '',
      stickiness: current.stickiness ?? false,
      legalValues: current.legalValues ?? [],
    };
    const norm = (v: typeof now) => ({
      ...v,
      legalValues: v.legalValues.map((l) => ({ value: l.value, description: l.description || null })),
    });
    if (same(norm(now), norm(wanted))) return [];
    return [
      {
        op: 'update',
        target: `context field ${field.name}`,
        run: () => api.request('PUT', `/api/admin/context/${enc(field.name)}`, wanted).then(() => {}),
      },
    ];
  });
}

function planTagTypes(file: ApplyFile, state: ServerState, api: ApiClient): Step[] {
  const declared = new Map(file.tagTypes.map((t) => [t.name, t.description]));
  // Tag types that feature tags use but the file does not declare are created too, as an import does.
  for (const tag of file.features.flatMap((f) => f.tags ?? []))
    if (!declared.has(tag.type)) declared.set(tag.type, undefined);
  return [...declared].flatMap(([name, description]): Step[] => {
    const current = state.tagTypes.get(name);
    if (!current)
      return [
        {
          op: 'create',
          target: `tag type ${name}`,
          run: () =>
            api
              .request('POST', '/api/admin/tag-types', {
                name,
                ...(description !== undefined ? { description } : {}),
              })
              .then(() => {}),
        },
      ];
    if (description === undefined || (current.description ?? '') === description) return [];
    return [
      {
        op: 'update',
        target: `tag type ${name}`,
        run: () =>
          api.request('PUT', `/api/admin/tag-types/${enc(name)}`, { name, description }).then(() => {}),
      },
    ];
  });
}

function planSegments(file: ApplyFile, state: ServerState, api: ApiClient, ids: SegmentIds): Step[] {
  return file.segments.flatMap((segment): Step[] => {
    const current = state.segments.get(segment.name);
    const body = {
      name: segment.name,
      description: segment.description !== undefined ? segment.description : (current?.description ?? null),
      project: segment.project !== undefined ? segment.project : (current?.project ?? null),
      constraints: segment.constraints
        ? segment.constraints.map(constraintBody)
        : (current?.constraints ?? []),
    };
    if (!current)
      return [
        {
          op: 'create',
          target: `segment ${segment.name}`,
          run: async () => {
            const created = await api.request<{ id: number }>('POST', '/api/admin/segments', body);
            ids.set(segment.name, created.id);
          },
        },
      ];
    const comparable = (s: Pick<typeof body, 'name' | 'description' | 'project' | 'constraints'>) => ({
      name: s.name,
      description: s.description ?? null,
      project: s.project ?? null,
      constraints: s.constraints.map(normConstraint),
    });
    if (same(comparable(body), comparable(current))) return [];
    return [
      {
        op: 'update',
        target: `segment ${segment.name}`,
        run: () => api.request('PUT', `/api/admin/segments/${current.id}`, body).then(() => {}),
      },
    ];
  });
}

/** Every segment a strategy names must be in the file or on the server. */
function checkSegmentNames(file: ApplyFile, state: ServerState): void {
  const known = new Set([...state.segments.keys(), ...file.segments.map((s) => s.name)]);
  const missing: string[] = [];
  for (const [i, feature] of file.features.entries())
    for (const [env, config] of Object.entries(feature.environments))
      for (const [j, strategy] of (config.strategies ?? []).entries())
        for (const [k, name] of strategy.segments.entries())
          if (!known.has(name))
            missing.push(
              `features[${i}].environments.${env}.strategies[${j}].segments[${k}]: no segment "${name}" in the file or on the server`,
            );
  if (missing.length > 0) throw new CliError(`the file names unknown segments:\n  ${missing.join('\n  ')}`);
}

/** The changes that bring the server to the file, in dependency order; empty when it is there. */
export function buildPlan(
  file: ApplyFile,
  state: ServerState,
  api: ApiClient,
  options: { prune?: boolean } = {},
): Step[] {
  checkSegmentNames(file, state);
  const ids: SegmentIds = new Map([...state.segments].map(([name, s]) => [name, s.id]));
  return [
    ...planEnvironments(file, state, api),
    ...planProjects(file, state, api),
    ...planContextFields(file, state, api),
    ...planTagTypes(file, state, api),
    ...planSegments(file, state, api, ids),
    ...planFeatures(file, state, api, ids, options.prune ?? file.prune),
  ];
}
