// Narrow local types of the sign-in and feature-search answers: their routes document no response
// schema, so the generated client types them as unknown and the UI narrows them here.
import type { FeatureView } from '@flagstaff/core';

export interface SessionUser {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  rootRole: number | string;
}

export interface SessionPermission {
  permission: string;
  project?: string;
  environment?: string;
}

export interface Session {
  user: SessionUser;
  permissions: SessionPermission[];
}

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
