import { z } from 'zod';
import type { FlagstaffEvent } from '../../domain/event.js';
import {
  eventCreatorListSchema,
  eventSearchPageSchema,
  eventSearchQuerySchema,
} from '../../domain/event-search.js';
import { defineOperation } from '../../operations/define-operation.js';

const DAY = 24 * 60 * 60 * 1000;

/** Everyone who has written events, for the event log's filter. */
export const listEventCreators = defineOperation({
  id: 'events.creators',
  summary: 'Everyone who has written events',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: eventCreatorListSchema,
  run: (_input, { repos }) => repos.events.listCreators(),
});

/**
 * The event log filtered (free text, feature, project, type, creator, a date range), newest first,
 * paged with offset and limit, with the total; events of projects the caller may not see are left out.
 */
export const searchEventsPaged = defineOperation({
  id: 'events.searchPaged',
  summary: 'Search the event log: text, feature, project, type, creator, dates; offset paging with a total',
  kind: 'read',
  permission: 'NONE',
  input: eventSearchQuerySchema,
  output: eventSearchPageSchema,
  run: async (q, { deps, caller, repos }) => {
    const filters = {
      ...(q.query ? { query: q.query } : {}),
      ...(q.feature ? { feature: q.feature } : {}),
      ...(q.project ? { project: q.project } : {}),
      ...(q.type ? { type: q.type as FlagstaffEvent['type'] } : {}),
      ...(q.from ? { createdAfter: new Date(Date.parse(q.from)).toISOString() } : {}),
      ...(q.to ? { createdBefore: new Date(Date.parse(q.to) + DAY).toISOString() } : {}),
      excludeProjects: await deps.policy.hiddenProjects(caller),
    };
    if (!q.createdBy) {
      const [page, total] = await Promise.all([
        repos.events.search({ ...filters, limit: q.offset + q.limit }),
        repos.events.count(filters),
      ]);
      return { events: page.slice(q.offset), total };
    }
    // The store has no creator filter: narrow by it within the matches (bounded by the offset cap).
    const all = (await repos.events.search({ ...filters, limit: 10_000 + q.limit })).filter(
      (e) => e.createdBy === q.createdBy,
    );
    return { events: all.slice(q.offset, q.offset + q.limit), total: all.length };
  },
});
