import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Session } from '../../api/session-types';

/** What the UI knows about the caller: signed in as someone, or needing to sign in. */
export type SessionState = { kind: 'signed-in'; session: Session } | { kind: 'signed-out' };

export const sessionKey = ['session'] as const;

async function loadSession(): Promise<SessionState> {
  const { data, response } = await api.GET('/api/admin/user');
  if (response.status === 401) return { kind: 'signed-out' };
  if (!response.ok || !data)
    throw new ApiError(response.status, `Could not load the session (${response.status}).`, undefined, null);
  return { kind: 'signed-in', session: data as Session };
}

/** The caller's session; 401 means "show the login page". */
export const useSession = () =>
  useQuery({ queryKey: sessionKey, queryFn: loadSession, staleTime: 60_000, retry: false });
