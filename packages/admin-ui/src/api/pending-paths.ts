// TEMPORARY (remove at merge): the lead's branch adds these routes to the route table, after which
// the generated `schema.d.ts` describes them and this file and its use in client.ts can go.
import type { FeatureView } from '@flagstaff/core';

interface ErrorBody {
  id: string;
  name: string;
  message: string;
}

type Json<T> = { content: { 'application/json': T } };

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

export interface PendingPaths {
  '/auth/simple/login': {
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: Json<{ username: string; password: string }>;
      responses: { 200: Json<SessionUser>; 401: Json<ErrorBody>; 429: Json<ErrorBody> };
    };
  };
  '/logout': {
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: { content?: never } };
    };
  };
  '/api/admin/user': {
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<Session>; 401: Json<ErrorBody>; 404: Json<ErrorBody> };
    };
  };
  '/api/admin/search/features': {
    get: {
      parameters: { query?: FeatureSearchQuery; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<{ features: FeatureSearchItem[]; total: number }>; 404: Json<ErrorBody> };
    };
  };
}
