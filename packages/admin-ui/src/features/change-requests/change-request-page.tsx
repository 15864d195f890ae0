import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { ChangeRequestView } from '../../api/types';
import { Badge, Card, ErrorNotice, formatDate, Loading, PageHeader } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCurrentUser } from '../auth/permissions';
import {
  addChangeRequestComment,
  changeRequestKeys,
  changeRequestQueryOptions,
  setChangeRequestState,
} from './api/change-requests';
import { ACTION_LABEL, ChangeDiff } from './change-diff';

type State = ChangeRequestView['state'];

export const STATE_TONE: Record<State, 'neutral' | 'good' | 'warn' | 'bad' | 'info'> = {
  Draft: 'neutral',
  'In review': 'info',
  Approved: 'good',
  Scheduled: 'info',
  Applied: 'good',
  Cancelled: 'neutral',
  Rejected: 'bad',
};

/** One change request: its changes as diffs, approvals, comments, and what may be done next. */
export default function ChangeRequestPage() {
  const { projectId = '', id = '' } = useParams();
  const me = useCurrentUser();
  const key = changeRequestKeys.one(projectId, id);
  const request = useQuery(changeRequestQueryOptions(projectId, id));
  const [comment, setComment] = useState('');
  const [scheduledAt, setScheduledAt] = useState('');
  const setState = useApiMutation({
    mutationFn: (body: { state: State; scheduledAt?: string }) => setChangeRequestState(projectId, id, body),
    invalidates: [key],
    success: (_r, body) => `Change request: ${body.state}.`,
  });
  const addComment = useApiMutation({
    mutationFn: (text: string) => addChangeRequestComment(projectId, id, text),
    invalidates: [key],
    onSuccess: () => setComment(''),
  });

  if (request.isPending) return <Loading />;
  if (request.error || !request.data) return <ErrorNotice error={request.error} />;
  const cr = request.data;
  const mine = cr.createdBy.id === me.id;
  const approvedByMe = cr.approvals.some((a) => a.createdBy.id === me.id);
  const busy = setState.isPending;
  const act = (state: State, label: string, tone = 'btn', disabledWhy?: string) => (
    <button
      type="button"
      className={tone}
      disabled={busy || disabledWhy !== undefined}
      title={disabledWhy}
      onClick={() => setState.mutate({ state })}
    >
      {label}
    </button>
  );
  const open = !['Applied', 'Cancelled', 'Rejected'].includes(cr.state);
  return (
    <>
      <PageHeader
        title={cr.title}
        subtitle={
          <>
            <Badge tone={STATE_TONE[cr.state]}>{cr.state}</Badge> in <strong>{cr.environment}</strong> of
            project {cr.project} · by {cr.createdBy.username} · {formatDate(cr.createdAt)} ·{' '}
            {cr.approvals.length} of {cr.minApprovals} approval{cr.minApprovals === 1 ? '' : 's'}
          </>
        }
      />
      {cr.conflict ? (
        <div className="notice notice-error" role="alert">
          Not applied: {cr.conflict}
        </div>
      ) : null}
      {cr.schedule ? (
        <div
          className={cr.schedule.status === 'pending' ? 'notice notice-info' : 'notice notice-error'}
          role="status"
        >
          {cr.schedule.status === 'pending'
            ? `Scheduled to be applied ${formatDate(cr.schedule.scheduledAt)}.`
            : `Schedule for ${formatDate(cr.schedule.scheduledAt)} ${cr.schedule.status}: ${cr.schedule.reason ?? ''}`}
        </div>
      ) : null}
      {open ? (
        <Card title="Review">
          <div className="row">
            {cr.state === 'Draft'
              ? act(
                  'In review',
                  'Send to review',
                  'btn btn-primary',
                  mine ? undefined : 'Only the author sends it to review',
                )
              : null}
            {cr.state === 'In review'
              ? act(
                  'Approved',
                  'Approve',
                  'btn btn-primary',
                  mine
                    ? 'You cannot approve your own change request'
                    : approvedByMe
                      ? 'You approved it already'
                      : undefined,
                )
              : null}
            {cr.state === 'Approved' || cr.state === 'Scheduled'
              ? act('Applied', 'Apply now', 'btn btn-primary')
              : null}
            {cr.state === 'Approved' || cr.state === 'Scheduled' ? (
              <>
                <input
                  type="datetime-local"
                  aria-label="Apply at"
                  style={{ width: 240 }}
                  value={scheduledAt}
                  onChange={(e) => setScheduledAt(e.target.value)}
                />
                <button
                  type="button"
                  className="btn"
                  disabled={busy || !scheduledAt}
                  onClick={() =>
                    setState.mutate({ state: 'Scheduled', scheduledAt: new Date(scheduledAt).toISOString() })
                  }
                >
                  Schedule
                </button>
              </>
            ) : null}
            {cr.state !== 'Draft'
              ? act('Rejected', 'Reject', 'btn btn-danger', mine ? 'The author cancels instead' : undefined)
              : null}
            {act('Cancelled', 'Cancel request', 'btn', mine ? undefined : 'Only the author cancels it')}
          </div>
        </Card>
      ) : null}
      <Card title={`Changes in ${cr.environment}`}>
        <ol className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Changes">
          {cr.features.flatMap((f) =>
            f.changes.map((change) => (
              <li key={`${f.name}:${change.id}`} className="strategy">
                <div className="strategy-head">
                  <Badge tone="info">{ACTION_LABEL[change.action] ?? change.action}</Badge>
                  <strong>{f.name}</strong>
                  <span className="spacer" />
                  <span className="muted">
                    {change.createdBy.username} · {formatDate(change.createdAt)}
                  </span>
                </div>
                <ChangeDiff change={change} />
              </li>
            )),
          )}
          {cr.segments.map((change) => (
            <li key={`segment:${change.id}`} className="strategy">
              <div className="strategy-head">
                <Badge tone="info">{ACTION_LABEL[change.action]}</Badge>
                <strong>segment {change.name}</strong>
              </div>
              <ChangeDiff change={change} />
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Approvals and comments">
        <ul aria-label="Approvals">
          {cr.approvals.map((a) => (
            <li key={`${a.createdBy.id}:${a.createdAt}`}>
              Approved by {a.createdBy.username} · {formatDate(a.createdAt)}
            </li>
          ))}
          {cr.rejections.map((a) => (
            <li key={`r${a.createdBy.id}:${a.createdAt}`}>
              Rejected by {a.createdBy.username} · {formatDate(a.createdAt)}
            </li>
          ))}
        </ul>
        <ol aria-label="Comments" style={{ paddingLeft: 18 }}>
          {cr.comments.map((c) => (
            <li key={c.id}>
              <strong>{c.createdBy.username}</strong> <span className="muted">{formatDate(c.createdAt)}</span>
              <div>{c.text}</div>
            </li>
          ))}
        </ol>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (comment.trim()) addComment.mutate(comment);
          }}
        >
          <input
            aria-label="Comment"
            placeholder="Add a comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <button type="submit" className="btn" disabled={addComment.isPending || !comment.trim()}>
            Comment
          </button>
        </form>
      </Card>
    </>
  );
}
