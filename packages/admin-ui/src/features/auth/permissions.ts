import type { Permission } from '@flagstaff/core';
import { createContext, useContext } from 'react';
import { EDITOR_ROOT_PERMISSIONS, isEnvironmentPermission, isProjectPermission } from '../../lib/domain';
import type { Session } from './api/session';

/** Decides whether the caller may do something; the server stays the judge. */
export type Can = (permission: string, scope?: { project?: string; environment?: string }) => boolean;

/**
 * A permission check over the session's permission list. The server lists `ADMIN` for everyone who
 * may do everything (root Admins, admin tokens, unauthenticated mode), so that grant alone decides.
 */
export function createCan(session: Pick<Session, 'permissions'>): Can {
  const isAdmin = session.permissions.some((p) => p.permission === 'ADMIN');
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

/**
 * Why the caller may not do something, in words a disabled button can show ("Needs the Editor
 * role…"), or null when they may. Built on `can`, so it never disagrees with what is enabled.
 */
export type WhyNot = (
  permission: string,
  scope?: { project?: string; environment?: string },
) => string | null;

/** The reason shown on actions only an Admin may take. */
export const ADMIN_ONLY = 'Needs the Admin role.';

export function createWhyNot(can: Can): WhyNot {
  return (permission, scope = {}) => {
    if (can(permission, scope)) return null;
    const p = permission as Permission;
    if (isProjectPermission(p)) {
      const where = scope.project ? ` in project “${scope.project}”` : '';
      const env = isEnvironmentPermission(p) && scope.environment ? ` for ${scope.environment}` : '';
      return `Needs the Editor role, or a project role${where} that allows this${env}.`;
    }
    return EDITOR_ROOT_PERMISSIONS.has(p) ? 'Needs the Editor or Admin role.' : ADMIN_ONLY;
  };
}

export const SessionContext = createContext<{ session: Session; can: Can } | null>(null);

/** The reason an action is not allowed for the signed-in caller (null when it is). */
export function useWhyNot(): WhyNot {
  return createWhyNot(useCan());
}

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
