import type { ChangeView } from '../../api/types';
import { jsonDiff } from '../../lib/json-diff';

/** What a change does, in words. */
export const ACTION_LABEL: Record<string, string> = {
  updateEnabled: 'Switch',
  addStrategy: 'Add strategy',
  updateStrategy: 'Change strategy',
  deleteStrategy: 'Delete strategy',
  reorderStrategy: 'Reorder strategies',
  patchVariant: 'Set variants',
  archiveFeature: 'Archive',
  addDependency: 'Add dependency',
  deleteDependency: 'Remove dependency',
  updateSegment: 'Change segment',
};

/** The state a change leaves, comparable with what it was drafted against. */
function afterOf(change: ChangeView): unknown {
  if (change.action === 'deleteStrategy') return null;
  if (change.action === 'archiveFeature') return { archived: true };
  return change.payload;
}

/** Before → after of one change as readable lines; with a conflict, the state now too. */
export function ChangeDiff({ change }: { change: ChangeView }) {
  const lines = jsonDiff(change.before ?? undefined, afterOf(change) ?? undefined);
  return (
    <>
      {lines.length ? (
        <pre className="diff" data-testid={`diff-${change.id}`}>
          {lines.map((line) => (
            <div key={`${line.kind}:${line.path}`} className={line.kind === 'add' ? 'diff-add' : 'diff-del'}>
              {line.kind === 'add' ? '+ ' : '- '}
              {line.path || '(value)'}: {line.value}
            </div>
          ))}
        </pre>
      ) : (
        <p className="muted">No difference from the state it was drafted against.</p>
      )}
      {change.conflictDetails ? (
        <div className="notice notice-error" role="alert">
          <strong>Conflict:</strong> {change.conflict}
          <pre className="diff" data-testid={`now-${change.id}`}>
            {jsonDiff(
              change.conflictDetails.before ?? undefined,
              change.conflictDetails.now ?? undefined,
            ).map((line) => (
              <div
                key={`${line.kind}:${line.path}`}
                className={line.kind === 'add' ? 'diff-add' : 'diff-del'}
              >
                {line.kind === 'add' ? '+ now ' : '- drafted against '}
                {line.path || '(value)'}: {line.value}
              </div>
            ))}
          </pre>
        </div>
      ) : null}
    </>
  );
}
