import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { isChunkLoadError } from '../api/connection';
import { errorMessage } from '../api/errors';
import { LoadFailure } from '../components/ui/load-error-boundary';

/** The error boundary of a route: the rest of the app keeps working. */
export function RouteError() {
  const error = useRouteError();
  if (isChunkLoadError(error)) return <LoadFailure error={error} />;
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <div className="card route-error" role="alert">
      <h1>This page ran into a problem</h1>
      <p className="muted">{message}</p>
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link className="btn btn-primary" to="/projects">
          Go to projects
        </Link>
      </div>
    </div>
  );
}
