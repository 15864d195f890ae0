import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { NetworkError } from '../api/connection';
import { ApiError } from '../api/errors';
import { ConnectionBanner } from '../components/ui/connection-banner';
import { LoadErrorBoundary } from '../components/ui/load-error-boundary';
import { ToastProvider } from '../components/ui/toast';
import { AuthGate } from '../features/auth/auth-gate';
import { type SessionState, sessionKey } from '../features/auth/use-session';

// A 401 from any call means the session ended (expired, signed out elsewhere): show the login page.
const signOutOn401 = (client: QueryClient) => (error: unknown) => {
  if (error instanceof ApiError && error.status === 401)
    client.setQueryData<SessionState>(sessionKey, { kind: 'signed-out' });
};

const makeQueryClient = () => {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // A lost server is told by the banner, with Retry: no silent retries that keep a spinner up.
        retry: (count, error) =>
          !(error instanceof ApiError && error.status < 500) && !(error instanceof NetworkError) && count < 2,
      },
    },
    queryCache: new QueryCache({ onError: (error) => signOutOn401(client)(error) }),
    mutationCache: new MutationCache({ onError: (error) => signOutOn401(client)(error) }),
  });
  return client;
};

/** Providers, then the session gate, then the routed app. */
export function App() {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <ConnectionBanner />
        <LoadErrorBoundary>
          <AuthGate />
        </LoadErrorBoundary>
      </ToastProvider>
    </QueryClientProvider>
  );
}
