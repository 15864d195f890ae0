import type { ApiTokenType } from '../domain/api-token.js';

/** Which API family a request is for; tokens of one type reach only their family. */
export type ApiFamily = 'admin' | 'client' | 'frontend';

/** Who is calling, as the adapter authenticated them. */
export type Principal =
  | { kind: 'user'; userId: number; name: string; rootRole: 'Admin' | 'Editor' | 'Viewer' }
  | {
      kind: 'api-token';
      tokenType: ApiTokenType;
      name: string;
      secretHash: string;
      projects: string[];
      environment: string;
    }
  /** Authentication is off (`auth: { type: 'none' }`): full access, recorded as this name. */
  | { kind: 'anonymous-admin'; name: string };

/** Whether a token scope reaches a project (`*` means all). */
export const tokenReachesProject = (projects: readonly string[], project: string): boolean =>
  projects.includes('*') || projects.includes(project);

/** Whether a token scope reaches an environment (`*` means all). */
export const tokenReachesEnvironment = (environment: string, wanted: string): boolean =>
  environment === '*' || environment === wanted;
