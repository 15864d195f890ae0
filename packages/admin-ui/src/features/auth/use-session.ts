import { useQuery } from '@tanstack/react-query';
import { currentUserQueryOptions } from './api/session';

export { type Session, type SessionState, sessionKey } from './api/session';

/** The caller's session; 401 means "show the login page". */
export const useSession = () => useQuery(currentUserQueryOptions());
