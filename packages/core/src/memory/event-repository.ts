import type { EventQuery, FlagstaffEvent, NewEvent } from '../domain/event.js';
import type { EventRepository } from '../ports/event-ports.js';
import { copy } from './copy.js';
import type { Session, StoredEvent } from './database.js';
import type { Sync } from './support.js';

/** Events over a session: appends stay in the session until it commits. */
export function createEventRepository(s: Session): Sync<EventRepository> {
  return {
    append(events) {
      return events.map((input) => {
        const stored = storeEvent(s.nextId('events'), input);
        s.appendEvent(stored);
        return copy(stored.event);
      });
    },
    search(query) {
      const limit = query.limit ?? Number.POSITIVE_INFINITY;
      const found: FlagstaffEvent[] = [];
      if (limit <= 0) return found;
      for (const stored of scan(s, query)) {
        found.push(copy(stored.event));
        if (found.length >= limit) break;
      }
      return found;
    },
    count(query) {
      let count = 0;
      for (const _ of scan(s, query)) count++;
      return count;
    },
    latestId(filter = {}) {
      const { committed, pending } = s.events();
      if (filter.types === undefined) return (pending.at(-1) ?? committed.at(-1))?.event.id ?? 0;
      const wanted = new Set<string>(filter.types);
      for (const list of [pending, committed]) {
        for (let i = list.length - 1; i >= 0; i--) {
          const stored = list[i]!;
          if (wanted.has(stored.event.type)) return stored.event.id;
        }
      }
      return 0;
    },
    listCreators() {
      const { committed, pending } = s.events();
      const ids = new Map<string, number>();
      for (const list of [committed, pending])
        for (const { event } of list) if (!ids.has(event.createdBy)) ids.set(event.createdBy, ids.size + 1);
      return [...ids]
        .map(([name, id]) => ({ id, name }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}

function storeEvent(id: number, input: NewEvent): StoredEvent {
  const event: FlagstaffEvent = {
    id,
    type: input.type,
    createdAt: input.createdAt,
    createdBy: input.createdBy,
    createdByUserId: input.createdByUserId ?? null,
    environment: input.environment ?? null,
    project: input.project ?? null,
    featureName: input.featureName ?? null,
    data: copy(input.data) ?? null,
    preData: copy(input.preData) ?? null,
    tags: copy(input.tags ?? []),
  };
  return { event, text: searchText(event), time: Date.parse(event.createdAt) };
}

/**
 * What free-text queries look in: type, creator, and every key and scalar of the payloads and tags,
 * one per line so that a match never spans two values (the SQL stores' word indexes cannot either).
 */
function searchText(event: FlagstaffEvent): string {
  const parts = [event.type, event.createdBy];
  collectText(event.data, parts);
  collectText(event.preData, parts);
  collectText(event.tags, parts);
  return parts.join('\n').toLowerCase();
}

function collectText(value: unknown, into: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) collectText(item, into);
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collectText(item, into);
    }
  } else {
    into.push(String(value));
  }
}

/** Events matching every filter, walking the id range the cursor filters allow, in the asked order. */
function* scan(s: Session, query: Omit<EventQuery, 'limit'>): Generator<StoredEvent> {
  const { committed, pending } = s.events();
  const length = committed.length + pending.length;
  const at = (i: number): StoredEvent =>
    (i < committed.length ? committed[i] : pending[i - committed.length])!;
  // Ids ascend with the index, so the id filters are a binary search, not a scan.
  const firstAbove = (id: number): number => {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at(mid).event.id > id) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const start = query.afterId === undefined ? 0 : firstAbove(query.afterId);
  const end = query.maxId === undefined ? length : firstAbove(query.maxId);
  const matches = eventMatcher(query);
  if (query.ascending) {
    for (let i = start; i < end; i++) if (matches(at(i))) yield at(i);
  } else {
    for (let i = end - 1; i >= start; i--) if (matches(at(i))) yield at(i);
  }
}

function eventMatcher(query: Omit<EventQuery, 'limit'>): (stored: StoredEvent) => boolean {
  // Every whitespace-separated term must occur, like the AND of terms a full-text index answers.
  const terms = (query.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const after = query.createdAfter === undefined ? undefined : Date.parse(query.createdAfter);
  const before = query.createdBefore === undefined ? undefined : Date.parse(query.createdBefore);
  const excluded = new Set(query.excludeProjects ?? []);
  return ({ event, text, time }) =>
    (query.type === undefined || event.type === query.type) &&
    (query.project === undefined || event.project === query.project) &&
    (event.project === null || !excluded.has(event.project)) &&
    (query.feature === undefined || event.featureName === query.feature) &&
    (after === undefined || time > after) &&
    (before === undefined || time < before) &&
    terms.every((term) => text.includes(term));
}
