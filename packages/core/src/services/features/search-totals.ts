import type { ProjectVisibility } from '../../auth/principal.js';
import type { FeatureSearchQuery } from '../../domain/feature-search.js';
import type { Store } from '../../ports/store.js';

/** Totals remembered at once (distinct filter sets): the most recent ones are kept. */
const MAX_TOTALS = 500;

/**
 * Totals of the feature search, remembered per set of filters and visibility at the event log's
 * newest id: counting every match is the one part of a page that grows with the table, and paging,
 * sorting or coming back to a filter asks for the same total again. Every write that can change which
 * features match (features, tags, strategies and segments, environments, archiving) writes an event
 * in its transaction, and event ids follow commit order, so while the newest id is unchanged the
 * total is too. The last-seen filter follows metrics, which write no event: it is always counted.
 */
export function createSearchTotals() {
  const totals = new Map<string, { version: number; total: number }>();

  const keyOf = (query: FeatureSearchQuery, visibility: ProjectVisibility): string | null => {
    if (query.lastSeenAt) return null;
    const { sortBy: _s, sortOrder: _o, sortEnvironment: _e, offset: _f, limit: _l, ...filters } = query;
    const seen = visibility.all ? '*' : [...visibility.projects].sort();
    return JSON.stringify([filters, seen]);
  };

  return {
    /** The remembered total for these filters at this version, if any. */
    known(query: FeatureSearchQuery, visibility: ProjectVisibility, version: number): number | undefined {
      const key = keyOf(query, visibility);
      const entry = key === null ? undefined : totals.get(key);
      return entry?.version === version ? entry.total : undefined;
    },
    remember(query: FeatureSearchQuery, visibility: ProjectVisibility, version: number, total: number): void {
      const key = keyOf(query, visibility);
      if (key === null) return;
      totals.delete(key);
      totals.set(key, { version, total });
      // Maps iterate in insertion order: the first key is the least recently remembered.
      if (totals.size > MAX_TOTALS) totals.delete(totals.keys().next().value!);
    },
  };
}

export type SearchTotals = ReturnType<typeof createSearchTotals>;

const totalsByStore = new WeakMap<Store, SearchTotals>();

/** The remembered totals of one store (each Flagstaff instance has its own store). */
export function searchTotalsOf(store: Store): SearchTotals {
  let totals = totalsByStore.get(store);
  if (!totals) {
    totals = createSearchTotals();
    totalsByStore.set(store, totals);
  }
  return totals;
}
