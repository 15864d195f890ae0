import { Component, type ReactNode } from 'react';
import { isChunkLoadError } from '../../api/connection';
import { errorMessage } from '../../api/errors';

/** What to say about an error that stopped a part of the app from showing, and the way out. */
export function LoadFailure({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  return (
    <div className="card route-error" role="alert">
      <h1>{chunk ? 'This part of Flagstaff could not be loaded' : 'This page ran into a problem'}</h1>
      <p className="muted">
        {chunk
          ? 'The server did not answer, or Flagstaff was updated since this tab opened. Reload to get the current version.'
          : errorMessage(error)}
      </p>
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}

/** Catches what fails outside the router's own boundaries (the lazily loaded app and sign-in pages). */
export class LoadErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? (
      <div className="center-page">
        <LoadFailure error={this.state.error} />
      </div>
    ) : (
      this.props.children
    );
  }
}
