import { addDraftChange } from './api/change-requests';
import { useProtectedEnvironments } from './draft-bar';
import { asDirectError } from './draft-errors';

/** The feature changes a draft takes; each payload is the body of the matching direct route. */
export type DraftAction =
  | 'updateEnabled'
  | 'addStrategy'
  | 'updateStrategy'
  | 'deleteStrategy'
  | 'reorderStrategy'
  | 'patchVariant'
  | 'addDependency'
  | 'deleteDependency';

/**
 * Adds one change to the caller's draft for the environment (the server opens the draft when there
 * is none, and replaces a change to the same thing): the one path every editor of the feature page
 * takes where the environment requires change requests. A refusal names the direct route's fields.
 */
export const draftChange = (
  project: string,
  environment: string,
  feature: string,
  action: DraftAction,
  payload?: unknown,
) =>
  addDraftChange(project, environment, {
    feature,
    action,
    ...(payload === undefined ? {} : { payload }),
  }).catch((error: unknown) => {
    throw asDirectError(error);
  });

export const draftedMessage = (environment: string) => `Added to your change request for ${environment}`;

/**
 * Where a change goes through a change request: for a change in one environment, that environment
 * when it requires them; for a feature-wide change (dependencies), the first of the feature's
 * environments that requires them, as the server's guard refuses the direct route then. Null: the
 * direct route applies.
 */
export function useDraftEnvironment(project: string, environments: readonly string[]): string | null {
  const guarded = useProtectedEnvironments(project);
  return environments.find((e) => guarded.has(e)) ?? null;
}

/** The note a dialog shows when what it saves goes into a change request, not onto the feature. */
export function DraftNote({ environment, what }: { environment: string; what: string }) {
  return (
    <div className="notice notice-info" role="note">
      {environment} requires change requests: {what} goes into your draft change request for {environment},
      and applies once the request is approved and applied.
    </div>
  );
}
