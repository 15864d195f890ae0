import { QueryClientProvider } from '@tanstack/react-query';
import { ConnectionBanner } from '../components/ui/connection-banner';
import { LoadErrorBoundary } from '../components/ui/load-error-boundary';
import { ToastProvider } from '../components/ui/toast';
import { AuthGate } from '../features/auth/auth-gate';
import { queryClient } from './query-client';

/** Providers, then the session gate, then the routed app. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ConnectionBanner />
        <LoadErrorBoundary>
          <AuthGate />
        </LoadErrorBoundary>
      </ToastProvider>
    </QueryClientProvider>
  );
}
