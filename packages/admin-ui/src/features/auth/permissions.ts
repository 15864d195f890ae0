import { createContext, useContext } from 'react';
import type { Session } from '../../api/session-types';

/** Decides whether the caller may do something; the server stays the judge. */
export type Can = (permission: string, scope?: { project?: string; environment?: string }) => boolean;

const ROOT_ADMIN_ROLES = new Set(['Admin', 'admin', 1, '1']);

/** A permission check over the session's permission list (ADMIN grants everything). */
export function createCan(session: Session): Can {
  const isAdmin =
    session.permissions.some((p) => p.permission === 'ADMIN') || ROOT_ADMIN_ROLES.has(session.user.rootRole);
  return (permission, scope = {}) =>
    isAdmin ||
    session.permissions.some(
      (p) =>
        p.permission === permission &&
        (p.project === undefined ||
          p.project === '*' ||
          scope.project === undefined ||
          p.project === scope.project) &&
        (p.environment === undefined ||
          p.environment === '*' ||
          scope.environment === undefined ||
          p.environment === scope.environment),
    );
}

export const SessionContext = createContext<{ session: Session; can: Can } | null>(null);

/** The signed-in caller and their permission check. */
export function useCan(): Can {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useCan outside the signed-in app');
  return value.can;
}

export function useCurrentUser(): Session['user'] {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useCurrentUser outside the signed-in app');
  return value.session.user;
}
