import { seesProject } from '../auth/principal.js';
import type { FeatureRecord } from '../domain/feature.js';
import { asciiLower, type SetFilter, type ValueFilter } from '../domain/feature-search.js';
import type { FeatureSearchRepository } from '../ports/feature-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { compare, type Sync } from './support.js';

const keeps = (filter: ValueFilter | undefined, value: string): boolean =>
  filter === undefined || filter.values.includes(value) !== filter.negate;

function keepsSet<T>(filter: SetFilter<T> | undefined, has: (item: T) => boolean): boolean {
  if (filter === undefined) return true;
  switch (filter.mode) {
    case 'any':
      return filter.items.some(has);
    case 'all':
      return filter.items.every(has);
    case 'none':
      return !filter.items.some(has);
    case 'notAll':
      return !filter.items.every(has);
  }
}

/** The feature table's search over a session: the same filters and order as the SQL query. */
export function createFeatureSearchRepository(s: Session): Sync<FeatureSearchRepository> {
  return {
    search(query, visibility, options) {
      const envRows = s.table('featureEnvironments').rows();
      const lastSeen = new Map<string, string>();
      const enabledIn = new Set<string>();
      for (const row of envRows) {
        const seen = lastSeen.get(row.featureName);
        if (row.lastSeenAt !== null && (seen === undefined || row.lastSeenAt > seen))
          lastSeen.set(row.featureName, row.lastSeenAt);
        if (row.enabled && row.environment === query.sortEnvironment) enabledIn.add(row.featureName);
      }
      const tagsOf = new Map<string, Set<string>>();
      for (const tag of s.table('featureTags').rows()) {
        const set = tagsOf.get(tag.featureName) ?? new Set<string>();
        set.add(`${tag.type}:${tag.value}`);
        tagsOf.set(tag.featureName, set);
      }
      const segmentNames = new Map(
        s
          .table('segments')
          .rows()
          .map((seg) => [seg.id, seg.name]),
      );
      const segmentsOf = new Map<string, Set<string>>();
      if (query.segment)
        for (const strategy of s.table('strategies').rows()) {
          const set = segmentsOf.get(strategy.featureName) ?? new Set<string>();
          for (const id of strategy.segments) {
            const name = segmentNames.get(id);
            if (name !== undefined) set.add(name);
          }
          segmentsOf.set(strategy.featureName, set);
        }

      const enabledRows = new Set(
        envRows.filter((r) => r.enabled).map((r) => `${r.featureName}\u0000${r.environment}`),
      );
      const statusKeeps = (f: FeatureRecord): boolean => {
        const filter = query.status;
        if (!filter || filter.values.length === 0) return true;
        const any = filter.values.some((value) => {
          const colon = value.lastIndexOf(':');
          const on = enabledRows.has(`${f.name}\u0000${value.slice(0, colon)}`);
          return value.slice(colon + 1) === 'enabled' ? on : !on;
        });
        return any !== filter.negate;
      };
      const textMatches = (f: FeatureRecord): boolean =>
        query.terms.length === 0 ||
        query.terms.some(
          (term) =>
            asciiLower(f.name).includes(term) ||
            asciiLower(f.description ?? '').includes(term) ||
            [...(tagsOf.get(f.name) ?? [])].some((tag) => asciiLower(tag).includes(term)),
        );
      const dateKeeps = (filter: { before: boolean; at: string } | undefined, value: string | null) =>
        filter === undefined || (value !== null && (filter.before ? value < filter.at : value >= filter.at));

      const matches = s
        .table('features')
        .rows()
        .filter(
          (f) =>
            (f.archivedAt !== null) === query.archived &&
            seesProject(visibility, f.project) &&
            keeps(query.project, f.project) &&
            keeps(query.type, f.type) &&
            keeps(query.state, f.stale ? 'stale' : 'active') &&
            keeps(query.lifecycle, f.lifecycle.stage) &&
            statusKeeps(f) &&
            keepsSet(query.tag, (t) => tagsOf.get(f.name)?.has(`${t.type}:${t.value}`) === true) &&
            keepsSet(query.segment, (name) => segmentsOf.get(f.name)?.has(name) === true) &&
            dateKeeps(query.createdAt, f.createdAt) &&
            dateKeeps(query.lastSeenAt, lastSeen.get(f.name) ?? null) &&
            textMatches(f),
        );

      const direction = query.sortOrder === 'desc' ? -1 : 1;
      const primary = (a: FeatureRecord, b: FeatureRecord): number => {
        switch (query.sortBy) {
          case 'name':
            return 0;
          case 'createdAt':
            return compare(a.createdAt, b.createdAt) * direction;
          case 'type':
            return compare(a.type, b.type) * direction;
          case 'environment':
            return (Number(enabledIn.has(a.name)) - Number(enabledIn.has(b.name))) * direction;
          case 'lastSeenAt': {
            const x = lastSeen.get(a.name);
            const y = lastSeen.get(b.name);
            if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
            return compare(x, y) * direction;
          }
        }
      };
      const nameOrder = query.sortBy === 'name' ? direction : 1;
      matches.sort((a, b) => primary(a, b) || compare(a.name, b.name) * nameOrder);
      const page = matches.slice(query.offset, query.offset + query.limit).map(copy);
      // As the SQL stores: a short page tells the total; otherwise a known one is taken as is.
      const ended = page.length < query.limit && (page.length > 0 || query.offset === 0);
      return { features: page, total: ended ? matches.length : (options?.knownTotal ?? matches.length) };
    },
  };
}
