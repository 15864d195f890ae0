import type { ApiClient } from '../api-client.js';
import type { ApplyFile } from './schema.js';

// What `apply` reads from the server, in the shapes the admin API answers with (only the fields used).

export interface ServerConstraint {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
}
export interface ServerVariant {
  name: string;
  weight: number;
  weightType?: string;
  stickiness?: string;
  payload?: { type: string; value: string };
  overrides?: { contextName: string; values: string[] }[];
}
export interface ServerStrategy {
  id: string;
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  sortOrder?: number;
  parameters?: Record<string, string>;
  constraints?: ServerConstraint[];
  segments?: number[];
  variants?: ServerVariant[];
}
export interface ServerFeature {
  name: string;
  project: string;
  type: string;
  description: string | null;
  impressionData: boolean;
  stale: boolean;
  tags?: { type: string; value: string }[];
  environments: {
    name: string;
    enabled: boolean;
    strategies: ServerStrategy[];
    variants?: ServerVariant[];
  }[];
}
export interface ServerSegment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: ServerConstraint[];
}
export interface ServerContextField {
  name: string;
  description?: string;
  stickiness?: boolean;
  legalValues?: { value: string; description?: string }[];
}

export interface ServerState {
  environments: Map<string, { name: string; type: string; sortOrder: number }>;
  projects: Map<string, { id: string; name: string; description: string | null }>;
  /** Environments enabled in each described project that exists. */
  projectEnvironments: Map<string, Set<string>>;
  /** Live features of each described project that exists. */
  features: Map<string, ServerFeature[]>;
  contextFields: Map<string, ServerContextField>;
  tagTypes: Map<string, { name: string; description?: string }>;
  segments: Map<string, ServerSegment>;
}

const byKey = <T>(list: T[], key: (item: T) => string) => new Map(list.map((item) => [key(item), item]));

/** The projects a file describes: listed under `projects` or holding one of its features. */
export function describedProjects(file: ApplyFile): string[] {
  return [...new Set([...file.projects.map((p) => p.id), ...file.features.map((f) => f.project)])];
}

/** Reads everything the file touches, in a handful of GETs. */
export async function readServerState(client: ApiClient, file: ApplyFile): Promise<ServerState> {
  const [envs, projects, context, tagTypes, segments] = await Promise.all([
    client.get<{ environments: { name: string; type: string; sortOrder: number }[] }>(
      '/api/admin/environments',
    ),
    client.get<{ projects: { id: string; name: string; description: string | null }[] }>(
      '/api/admin/projects',
    ),
    client.get<ServerContextField[]>('/api/admin/context'),
    client.get<{ tagTypes: { name: string; description?: string }[] }>('/api/admin/tag-types'),
    client.get<{ segments: ServerSegment[] }>('/api/admin/segments'),
  ]);
  const state: ServerState = {
    environments: byKey(envs.environments, (e) => e.name),
    projects: byKey(projects.projects, (p) => p.id),
    projectEnvironments: new Map(),
    features: new Map(),
    contextFields: byKey(context, (c) => c.name),
    tagTypes: byKey(tagTypes.tagTypes, (t) => t.name),
    segments: byKey(segments.segments, (s) => s.name),
  };
  for (const project of describedProjects(file)) {
    if (!state.projects.has(project)) continue;
    const p = encodeURIComponent(project);
    const [projectEnvs, features] = await Promise.all([
      client.get<{ environments: { name: string }[] }>(`/api/admin/environments/project/${p}`),
      client.get<{ features: ServerFeature[] }>(`/api/admin/projects/${p}/features`),
    ]);
    state.projectEnvironments.set(project, new Set(projectEnvs.environments.map((e) => e.name)));
    state.features.set(project, features.features);
  }
  return state;
}
