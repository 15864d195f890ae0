// Narrow local types of the feature-search answers: their routes document no response schema, so
// the generated client types them as unknown and the UI narrows them here.
import type { FeatureView } from '@flagstaff/core';

export interface FeatureSearchQuery {
  query?: string;
  project?: string;
  tag?: string;
  type?: string;
  state?: string;
  lifecycle?: string;
  status?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

/** A row of `GET /api/admin/search/features` (Unleash's `searchFeatures`), narrowed to what the table shows. */
export type FeatureSearchItem = Pick<
  FeatureView,
  | 'name'
  | 'type'
  | 'description'
  | 'project'
  | 'stale'
  | 'createdAt'
  | 'tags'
  | 'lifecycle'
  | 'impressionData'
> & {
  environments: { name: string; type: string; enabled: boolean; hasStrategies?: boolean }[];
};
