import type { FeatureSearchResult, FeatureStrategy, FeatureView, PlaygroundResponse } from '@flagstaff/core';
import type { FlagBackend, StrategyAt } from './backend.js';
import { ToolError } from './tools/define.js';

/**
 * The admin API calls the HTTP backend makes; the `flagstaff` CLI's API client fits. A failed call
 * throws with the server's message (which names a missing permission), and that becomes the tool error.
 */
export interface AdminApi {
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

const e = encodeURIComponent;
const featurePath = (project: string, name: string) =>
  `/api/admin/projects/${e(project)}/features/${e(name)}`;
const strategiesPath = (at: StrategyAt) =>
  `${featurePath(at.project, at.feature)}/environments/${e(at.environment)}/strategies`;

/** The tools' backend over a running server's admin API, as the token's owner. */
export function createHttpBackend(client: AdminApi): FlagBackend {
  // The server's answer (status, error name, message naming the permission) is what the assistant sees.
  const api: AdminApi = {
    request: <T>(method: string, path: string, body?: unknown) =>
      client.request<T>(method, path, body).catch((error: unknown) => {
        throw new ToolError(error instanceof Error ? error.message : String(error));
      }),
  };
  return {
    searchFeatures: (params) =>
      api.request<FeatureSearchResult>('GET', `/api/admin/search/features?${new URLSearchParams(params)}`),
    async listFeatures(project) {
      const path =
        project === undefined ? '/api/admin/features' : `/api/admin/projects/${e(project)}/features`;
      return (await api.request<{ features: FeatureView[] }>('GET', path)).features;
    },
    getFeature: (project, name) => api.request<FeatureView>('GET', featurePath(project, name)),
    createFeature: (project, input) =>
      api.request<FeatureView>('POST', `/api/admin/projects/${e(project)}/features`, input),
    async setEnabled(project, name, environment, enabled) {
      await api.request(
        'POST',
        `${featurePath(project, name)}/environments/${e(environment)}/${enabled ? 'on' : 'off'}`,
      );
    },
    listStrategies: (at) => api.request<FeatureStrategy[]>('GET', strategiesPath(at)),
    addStrategy: (at, config) => api.request<FeatureStrategy>('POST', strategiesPath(at), config),
    updateStrategy: (at, id, config) =>
      api.request<FeatureStrategy>('PUT', `${strategiesPath(at)}/${e(id)}`, config),
    evaluate: (input) => api.request<PlaygroundResponse>('POST', '/api/admin/playground', input),
    async featureTypeLifetimes() {
      const { types } = await api.request<{ types: { id: string; lifetimeDays: number | null }[] }>(
        'GET',
        '/api/admin/feature-types',
      );
      return Object.fromEntries(types.map((t) => [t.id, t.lifetimeDays]));
    },
    async archiveFeature(project, name) {
      await api.request('DELETE', featurePath(project, name));
    },
  };
}
