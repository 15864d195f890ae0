import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useServerUnreachable } from '../../api/connection';

/** How often the page asks again on its own while the server is unreachable. */
const AUTO_RETRY_MS = 15_000;

/**
 * Says so when the server stops answering, over the page rather than instead of it: what is on
 * screen stays (it may be out of date) and Retry asks again for everything the page shows (as the
 * page also does by itself every 15 s, so the banner goes when the server is back).
 */
export function ConnectionBanner() {
  const unreachable = useServerUnreachable();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  useEffect(() => {
    if (!unreachable) return;
    const timer = setInterval(() => void queryClient.refetchQueries({ type: 'active' }), AUTO_RETRY_MS);
    return () => clearInterval(timer);
  }, [unreachable, queryClient]);
  if (!unreachable) return null;
  const retry = async () => {
    setRetrying(true);
    try {
      await queryClient.refetchQueries({ type: 'active' });
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div className="connection-banner" role="alert">
      <span>
        <strong>Can’t reach the server.</strong> What you see may be out of date, and changes can’t be saved
        until it answers again.
      </span>
      <button type="button" className="btn btn-small" onClick={retry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}
