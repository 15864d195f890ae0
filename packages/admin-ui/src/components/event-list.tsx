import type { FlagstaffEvent } from '../api/types';
import { revertEvent } from '../features/change-requests/api/change-requests';
import { REVERTIBLE_EVENT_TYPES } from '../lib/domain';
import { jsonDiff } from '../lib/json-diff';
import { useApiMutation } from '../lib/use-api-mutation';
import { Badge, EmptyState, formatDate } from './ui/page';

/** Events with who/when/where and a readable diff of preData → data. */
export function EventList({ events }: { events: FlagstaffEvent[] }) {
  const revert = useApiMutation({
    mutationFn: (id: number) => revertEvent(id),
    // Whatever lists features or events may show the reverted state.
    invalidates: [['events'], ['features'], ['projects'], ['change-requests']],
    success: (result) =>
      result.applied ? 'Reverted' : 'The revert needs a change request: it was added to your draft',
  });
  if (events.length === 0) return <EmptyState>No events.</EmptyState>;
  return (
    <ol className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Events">
      {events.map((e) => {
        const diff = jsonDiff(e.preData, e.data);
        return (
          <li key={e.id} className="strategy">
            <div className="strategy-head">
              <Badge tone="info">{e.type}</Badge>
              {e.featureName ? <strong>{e.featureName}</strong> : null}
              {e.environment ? <Badge>{e.environment}</Badge> : null}
              {e.project ? <span className="muted">project {e.project}</span> : null}
              <span className="spacer" />
              <span className="muted">
                {e.createdBy} · {formatDate(e.createdAt)}
              </span>
              {REVERTIBLE_EVENT_TYPES.has(e.type) && e.featureName ? (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Revert event ${e.id}`}
                  disabled={revert.isPending}
                  onClick={() => revert.mutate(e.id)}
                >
                  Revert
                </button>
              ) : null}
            </div>
            {diff.length ? (
              <pre className="diff">
                {diff.slice(0, 40).map((line, i) => (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
                    key={i}
                    className={line.kind === 'add' ? 'diff-add' : 'diff-del'}
                  >
                    {line.kind === 'add' ? '+ ' : '- '}
                    {line.path || '(value)'}: {line.value}
                  </div>
                ))}
                {diff.length > 40 ? <div className="muted">… {diff.length - 40} more changes</div> : null}
              </pre>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
