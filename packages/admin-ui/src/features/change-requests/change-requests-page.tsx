import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  Badge,
  Card,
  EmptyState,
  ErrorNotice,
  formatDate,
  Loading,
  PageHeader,
} from '../../components/ui/page';
import { useCurrentUser } from '../auth/permissions';
import { type ChangeRequestSearch, searchChangeRequestsQueryOptions } from './api/change-requests';
import { STATE_TONE } from './change-request-page';

type Tab = 'open' | 'mine' | 'review' | 'closed';
const TABS: { tab: Tab; label: string }[] = [
  { tab: 'open', label: 'Open' },
  { tab: 'review', label: 'Asked to review' },
  { tab: 'mine', label: 'Mine' },
  { tab: 'closed', label: 'Closed' },
];

/** Change requests across the projects the user may see: open, theirs, to review, closed. */
export default function ChangeRequestsPage() {
  const me = useCurrentUser();
  const [tab, setTab] = useState<Tab>('open');
  const query: ChangeRequestSearch = {
    state: tab === 'closed' ? ('closed' as const) : ('open' as const),
    ...(tab === 'mine' ? { createdBy: String(me.id) } : {}),
    ...(tab === 'review' ? { requestedApproverId: String(me.id) } : {}),
  };
  const list = useQuery(searchChangeRequestsQueryOptions(query));
  const rows = list.data?.changeRequests ?? [];
  return (
    <>
      <PageHeader
        title="Change requests"
        subtitle="Changes waiting for review, approval or their scheduled time."
      />
      <Card>
        <div className="row" role="tablist" aria-label="Which change requests">
          {TABS.map((t) => (
            <button
              key={t.tab}
              type="button"
              role="tab"
              aria-selected={tab === t.tab}
              className={tab === t.tab ? 'btn btn-small btn-primary' : 'btn btn-small'}
              onClick={() => setTab(t.tab)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <ErrorNotice error={list.error} />
        {list.isPending ? (
          <Loading />
        ) : rows.length === 0 ? (
          <EmptyState>No change requests here.</EmptyState>
        ) : (
          <table aria-label="Change requests">
            <thead>
              <tr>
                <th>Title</th>
                <th>State</th>
                <th>Where</th>
                <th>Changes</th>
                <th>By</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/projects/${r.project}/change-requests/${r.id}`}>{r.title}</Link>
                  </td>
                  <td>
                    <Badge tone={STATE_TONE[r.state]}>{r.state}</Badge>
                  </td>
                  <td>
                    <Link to={`/projects/${r.project}/change-requests`}>{r.project}</Link> / {r.environment}
                  </td>
                  <td>{[...r.features, ...r.segments.map((s) => `segment ${s}`)].join(', ')}</td>
                  <td>{r.createdBy.username}</td>
                  <td>{formatDate(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
