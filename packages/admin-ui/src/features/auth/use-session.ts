import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Session } from '../../api/pending-paths';

/** What the UI knows about the caller: signed in as someone, or needing to sign in. */
export type SessionState = { kind: 'signed-in'; session: Session } | { kind: 'signed-out' };

// TEMPORARY SHIM (the lead removes it at merge): before the login/session routes exist,
// `GET /api/admin/user` answers 404; treat that as an anonymous admin (server run with FLAGSTAFF_AUTH=none).
const ANONYMOUS_ADMIN: Session = {
  user: { id: 0, name: 'Anonymous admin', email: null, username: 'admin', rootRole: 'Admin' },
  permissions: [{ permission: 'ADMIN' }],
};

export const sessionKey = ['session'] as const;

async function loadSession(): Promise<SessionState> {
  const { data, response } = await api.GET('/api/admin/user');
  if (response.status === 401) return { kind: 'signed-out' };
  if (response.status === 404) return { kind: 'signed-in', session: ANONYMOUS_ADMIN }; // TEMPORARY SHIM
  if (!response.ok || !data)
    throw new ApiError(response.status, `Could not load the session (${response.status}).`, undefined, null);
  return { kind: 'signed-in', session: data };
}

/** The caller's session; 401 means "show the login page". */
export const useSession = () =>
  useQuery({ queryKey: sessionKey, queryFn: loadSession, staleTime: 60_000, retry: false });
