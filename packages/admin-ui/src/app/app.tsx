import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/errors';
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
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
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
        <AuthGate />
      </ToastProvider>
    </QueryClientProvider>
  );
}
