import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { NetworkError } from '../api/connection';
import { ApiError } from '../api/errors';
import { type SessionState, sessionKey } from '../features/auth/api/session';

// A 401 from any call means the session ended (expired, signed out elsewhere): show the login page.
const signOutOn401 = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401)
    queryClient.setQueryData<SessionState>(sessionKey, { kind: 'signed-out' });
};

/**
 * The app's one query cache. A module of its own so that the entry can start the opened page's
 * queries (`early-start.ts`) before React renders anything; the components then find them under way.
 */
export const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // A lost server is told by the banner, with Retry: no silent retries that keep a spinner up.
      retry: (count, error) =>
        !(error instanceof ApiError && error.status < 500) && !(error instanceof NetworkError) && count < 2,
    },
  },
  queryCache: new QueryCache({ onError: signOutOn401 }),
  mutationCache: new MutationCache({ onError: signOutOn401 }),
});
