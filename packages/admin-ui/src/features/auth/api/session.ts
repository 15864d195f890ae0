import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import type { paths } from '../../../api/schema';

/** GET /api/admin/user (operation `accounts.currentUser`): the signed-in user and what they may do. */
export type Session = paths['/api/admin/user']['get']['responses'][200]['content']['application/json'];
/** One permission of the session; `ADMIN` stands for every permission. */
export type SessionPermission = Session['permissions'][number];

/** What the UI knows about the caller: signed in as someone, or needing to sign in. */
export type SessionState = { kind: 'signed-in'; session: Session } | { kind: 'signed-out' };

export const sessionKey = ['session'] as const;

async function loadSession(): Promise<SessionState> {
  const { data, response } = await api.GET('/api/admin/user');
  if (response.status === 401) return { kind: 'signed-out' };
  if (!response.ok || !data)
    throw new ApiError(response.status, `Could not load the session (${response.status}).`, undefined, null);
  return { kind: 'signed-in', session: data };
}

/** The caller's session (`accounts.currentUser`); 401 means "show the login page". */
export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: sessionKey, queryFn: loadSession, staleTime: 60_000, retry: false });
