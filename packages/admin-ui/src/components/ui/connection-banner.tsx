import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useServerUnreachable } from '../../api/connection';

/**
 * Says so when the server stops answering, over the page rather than instead of it: what is on
 * screen stays (it may be out of date) and Retry asks again for everything the page shows.
 */
export function ConnectionBanner() {
  const unreachable = useServerUnreachable();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
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
