import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { FlagstaffEvent } from '../domain/event.js';
import { parseWith } from '../domain/parse.js';
import type { Segment } from '../domain/segment.js';
import { notFound } from '../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from './deps.js';
import { writeEvents } from './events/event-writer.js';
import type { StrategyService } from './features/strategy-service.js';

export const environmentSortOrderSchema = z.record(
  z.string(),
  z.number().int('must be a whole number').min(-1_000_000, 'is too small').max(1_000_000, 'is too large'),
);

export const strategySegmentsSchema = z.object({
  projectId: z.string().min(1, 'is required'),
  strategyId: z.string().min(1, 'is required'),
  environmentId: z.string().min(1, 'is required'),
  segmentIds: z.array(z.number().int('must hold segment ids')),
});

/** Query of `GET /api/admin/search/events`, as the reference names it. */
export const eventSearchQuerySchema = z.object({
  query: z.string().max(200, 'must be at most 200 characters').optional(),
  feature: z.string().optional(),
  project: z.string().optional(),
  type: z.string().optional(),
  createdBy: z.string().optional(),
  from: z.iso.date('must be a date such as 2026-01-31').optional(),
  to: z.iso.date('must be a date such as 2026-01-31').optional(),
  offset: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(10_000, 'must be at most 10000')
    .default(0),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000, 'must be at most 1000')
    .default(50),
});

const DAY = 24 * 60 * 60 * 1000;

/**
 * Smaller reference operations around the catalog: tags on their own, event creators and the event
 * search with paging, environment sort order, and the segments of a strategy.
 */
export function createCatalogExtras(deps: ServiceDeps, strategies: StrategyService) {
  const { store } = deps;

  return {
    /** GET /api/admin/event-creators: who has written events, for the event log's filter. */
    async eventCreators(caller: Caller): Promise<{ id: number; name: string }[]> {
      await deps.policy.require(caller, 'NONE', {});
      return store.events.listCreators();
    },

    /**
     * GET /api/admin/search/events: the event log filtered (free text, feature, project, type,
     * creator, a date range), newest first, paged with offset and limit, with the total.
     */
    async searchEvents(caller: Caller, input: unknown): Promise<{ events: FlagstaffEvent[]; total: number }> {
      await deps.policy.require(caller, 'NONE', {});
      const q = parseWith(eventSearchQuerySchema, input);
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
          store.events.search({ ...filters, limit: q.offset + q.limit }),
          store.events.count(filters),
        ]);
        return { events: page.slice(q.offset), total };
      }
      // The store has no creator filter: narrow by it within the matches (bounded by the offset cap).
      const all = (await store.events.search({ ...filters, limit: 10_000 + q.limit })).filter(
        (e) => e.createdBy === q.createdBy,
      );
      return { events: all.slice(q.offset, q.offset + q.limit), total: all.length };
    },

    /** PUT /api/admin/environments/sort-order: `{ name: sortOrder }` for any of the environments. */
    async setEnvironmentOrder(caller: Caller, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const order = parseWith(environmentSortOrderSchema, input);
      await inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        for (const [name, sortOrder] of Object.entries(order)) {
          const before = await tx.environments.get(name);
          if (!before) throw notFound('environment', name);
          if (before.sortOrder === sortOrder) continue;
          const after = { ...before, sortOrder };
          await tx.environments.update(after);
          await writeEvents(tx, actor, at, [
            { type: 'environment-updated', environment: name, data: after, preData: before },
          ]);
        }
      });
    },

    /** GET /api/admin/segments/strategies/:strategyId: the segments a strategy uses. */
    async segmentsOfStrategy(caller: Caller, strategyId: string): Promise<Segment[]> {
      const strategy = await store.strategies.get(strategyId);
      if (!strategy) {
        await deps.policy.require(caller, 'NONE', {});
        throw notFound('strategy', strategyId);
      }
      await deps.policy.require(caller, 'NONE', { project: strategy.projectId });
      const segments = await store.segments.list();
      return segments.filter((s) => strategy.segments.includes(s.id));
    },

    /** POST /api/admin/segments/strategies: replaces the segments of one strategy. */
    async setStrategySegments(caller: Caller, input: unknown): Promise<void> {
      // The caller's family first (the project is in the body); the strategy's own check follows.
      await deps.policy.require(caller, 'NONE', {});
      const body = parseWith(strategySegmentsSchema, input);
      const at = { project: body.projectId, feature: '', environment: body.environmentId };
      const strategy = await store.strategies.get(body.strategyId);
      if (!strategy || strategy.projectId !== body.projectId || strategy.environment !== body.environmentId) {
        await deps.policy.require(caller, 'UPDATE_FEATURE_STRATEGY', { project: body.projectId });
        throw notFound('strategy', body.strategyId);
      }
      await strategies.patch(caller, { ...at, feature: strategy.featureName }, strategy.id, [
        { op: 'replace', path: '/segments', value: body.segmentIds },
      ]);
    },
  };
}

export type CatalogExtras = ReturnType<typeof createCatalogExtras>;
