import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EventList } from '../../components/event-list';
import { ActionButton } from '../../components/ui/action-button';
import { Card, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { EVENT_TYPES } from '../../lib/domain';
import { searchEventsQueryOptions } from './api/events';

const PAGE = 25;

/** The event log with filters and cursor paging (the cursor is the id to list back from). */
export default function EventsPage() {
  const [filters, setFilters] = useState({ type: '', project: '', feature: '', query: '' });
  const [cursors, setCursors] = useState<number[]>([]);
  const cursor = cursors.at(-1);
  const events = useQuery(searchEventsQueryOptions(filters, cursor, PAGE));
  const set = (key: keyof typeof filters) => (e: { target: { value: string } }) => {
    setCursors([]);
    setFilters({ ...filters, [key]: e.target.value });
  };
  const list = events.data?.events ?? [];
  const last = list.at(-1);
  return (
    <>
      <PageHeader title="Event log" subtitle="Every change, who made it and what it changed." />
      <Card>
        <search className="toolbar">
          <input
            type="search"
            aria-label="Search events"
            placeholder="Free text"
            value={filters.query}
            onChange={set('query')}
          />
          <select aria-label="Event type" value={filters.type} onChange={set('type')}>
            <option value="">All event types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input
            aria-label="Project"
            placeholder="Project id"
            value={filters.project}
            onChange={set('project')}
            style={{ width: 140 }}
          />
          <input
            aria-label="Feature"
            placeholder="Feature name"
            value={filters.feature}
            onChange={set('feature')}
            style={{ width: 160 }}
          />
        </search>
        <ErrorNotice error={events.error} />
        {events.isPending ? <Loading /> : <EventList events={list} />}
        <div className="pager">
          <span className="muted">{events.data?.totalEvents ?? 0} matching events</span>
          <div className="row">
            <ActionButton
              type="button"
              className="btn btn-small"
              disabledReason={cursors.length === 0 ? 'These are the newest events.' : null}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </ActionButton>
            <ActionButton
              type="button"
              className="btn btn-small"
              disabledReason={!last || list.length < PAGE ? 'There are no older events.' : null}
              onClick={() => last && setCursors([...cursors, last.id - 1])}
            >
              Older
            </ActionButton>
          </div>
        </div>
      </Card>
    </>
  );
}
