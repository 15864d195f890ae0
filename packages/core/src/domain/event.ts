import { z } from 'zod';
import type { Tag } from './tag.js';

/** Every event type of the contract, in its order. */
export const EVENT_TYPES = [
  'application-created',
  'feature-created',
  'feature-deleted',
  'feature-updated',
  'feature-metadata-updated',
  'feature-variants-updated',
  'feature-environment-variants-updated',
  'feature-project-change',
  'feature-archived',
  'feature-revived',
  'feature-import',
  'feature-tagged',
  'feature-tag-import',
  'feature-strategy-update',
  'feature-strategy-add',
  'feature-strategy-remove',
  'feature-type-updated',
  'feature-completed',
  'feature-uncompleted',
  'strategy-order-changed',
  'drop-feature-tags',
  'feature-untagged',
  'feature-stale-on',
  'feature-stale-off',
  'drop-features',
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-potentially-stale-on',
  'feature-favorited',
  'feature-unfavorited',
  'features-exported',
  'features-imported',
  'strategy-created',
  'strategy-deleted',
  'strategy-deprecated',
  'strategy-reactivated',
  'strategy-updated',
  'strategy-import',
  'drop-strategies',
  'default-strategy-updated',
  'context-field-created',
  'context-field-updated',
  'context-field-deleted',
  'project-access-added',
  'project-access-user-roles-updated',
  'project-access-group-roles-updated',
  'project-access-user-roles-deleted',
  'project-access-group-roles-deleted',
  'project-access-updated',
  'project-created',
  'project-updated',
  'project-deleted',
  'project-import',
  'project-user-added',
  'project-user-removed',
  'project-user-role-changed',
  'project-group-role-changed',
  'project-group-added',
  'project-group-removed',
  'drop-projects',
  'project-favorited',
  'project-unfavorited',
  'project-environment-added',
  'project-environment-removed',
  'role-created',
  'role-updated',
  'role-deleted',
  'tag-created',
  'tag-deleted',
  'tag-import',
  'drop-tags',
  'tag-type-created',
  'tag-type-deleted',
  'tag-type-updated',
  'tag-type-import',
  'drop-tag-types',
  'addon-config-created',
  'addon-config-updated',
  'addon-config-deleted',
  'db-pool-update',
  'user-created',
  'user-updated',
  'user-deleted',
  'setting-created',
  'setting-updated',
  'setting-deleted',
  'client-metrics',
  'client-register',
  'pat-created',
  'pat-deleted',
  'public-signup-token-created',
  'public-signup-token-user-added',
  'public-signup-token-updated',
  'drop-environments',
  'environment-import',
  'environment-created',
  'environment-updated',
  'environment-deleted',
  'segment-created',
  'segment-updated',
  'segment-deleted',
  'segment-import',
  'group-created',
  'group-updated',
  'group-deleted',
  'group-user-added',
  'group-user-removed',
  'change-request-created',
  'change-request-discarded',
  'change-added',
  'change-discarded',
  'change-edited',
  'change-request-rejected',
  'change-request-approved',
  'change-request-approval-added',
  'change-request-cancelled',
  'change-request-sent-to-review',
  'change-request-schedule-suspended',
  'change-request-applied',
  'change-request-scheduled',
  'change-request-scheduled-application-success',
  'change-request-scheduled-application-failure',
  'change-request-configuration-updated',
  'api-token-created',
  'api-token-updated',
  'api-token-deleted',
  'service-account-created',
  'service-account-deleted',
  'service-account-updated',
  'feature-dependency-added',
  'feature-dependency-removed',
  'feature-dependencies-removed',
  'feature-link-added',
  'feature-link-updated',
  'feature-link-removed',
  'banner-created',
  'banner-updated',
  'banner-deleted',
  'signal-endpoint-created',
  'signal-endpoint-updated',
  'signal-endpoint-deleted',
  'signal-endpoint-token-created',
  'signal-endpoint-token-updated',
  'signal-endpoint-token-deleted',
  'actions-created',
  'actions-updated',
  'actions-deleted',
] as const;
export const eventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof eventTypeSchema>;

/**
 * Configuration events that change only the SDK view of the feature they name; the rest of
 * `CONFIGURATION_EVENT_TYPES` (segments, environments, projects, imports) can change many at once.
 */
export const FEATURE_CONFIGURATION_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'feature-created',
  'feature-deleted',
  'feature-updated',
  'feature-metadata-updated',
  'feature-variants-updated',
  'feature-environment-variants-updated',
  'feature-project-change',
  'feature-archived',
  'feature-revived',
  'feature-strategy-update',
  'feature-strategy-add',
  'feature-strategy-remove',
  'strategy-order-changed',
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-dependency-added',
  'feature-dependency-removed',
  'feature-dependencies-removed',
  'feature-stale-on',
  'feature-stale-off',
  'feature-type-updated',
]);

/** Events that change what SDKs evaluate; the latest of them is the configuration revision. */
export const CONFIGURATION_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  ...FEATURE_CONFIGURATION_EVENT_TYPES,
  'feature-import',
  'drop-features',
  'features-imported',
  'segment-created',
  'segment-updated',
  'segment-deleted',
  'segment-import',
  'project-deleted',
  'project-environment-added',
  'project-environment-removed',
  'environment-updated',
  'environment-deleted',
]);

/** An event to append; the store assigns `id` and `createdAt` is set by the service clock. */
export interface NewEvent {
  type: EventType;
  createdBy: string;
  createdByUserId: number | null;
  createdAt: string;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: unknown;
  preData?: unknown;
  tags?: Tag[];
}

/** An event as stored and returned. */
export interface FlagstaffEvent {
  id: number;
  type: EventType;
  createdAt: string;
  createdBy: string;
  createdByUserId: number | null;
  environment: string | null;
  project: string | null;
  featureName: string | null;
  data: unknown;
  preData: unknown;
  tags: Tag[];
}

export const eventSearchSchema = z.object({
  type: eventTypeSchema.optional(),
  project: z.string().optional(),
  feature: z.string().optional(),
  query: z.string().max(200, 'must be at most 200 characters').optional(),
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(100),
  offset: z.coerce.number().int().min(0, 'must be at least 0').optional(),
});
export type EventSearchInput = z.input<typeof eventSearchSchema>;

/** A search of the event log. `beforeId` makes the listing start at that id and go older. */
export interface EventQuery {
  type?: EventType | undefined;
  project?: string | undefined;
  feature?: string | undefined;
  query?: string | undefined;
  /** Only events with id ≤ this (cursor). */
  maxId?: number | undefined;
  /** Only events with id > this (for tailing the outbox). */
  afterId?: number | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  limit?: number | undefined;
  /** Oldest first instead of newest first. */
  ascending?: boolean | undefined;
  /**
   * Leaves out events of these projects (private projects hidden from the viewer); events without
   * a project are kept. Omitted or empty: no project is left out.
   */
  excludeProjects?: readonly string[] | undefined;
}

/** An event as the API answers it (`data` and `preData` are whatever the event recorded). */
export const flagstaffEventSchema = z.strictObject({
  id: z.number().int(),
  type: eventTypeSchema,
  createdAt: z.string(),
  createdBy: z.string(),
  createdByUserId: z.number().int().nullable(),
  environment: z.string().nullable(),
  project: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.unknown(),
  preData: z.unknown(),
  tags: z.array(z.strictObject({ type: z.string(), value: z.string() })),
});

/** `GET /api/admin/events`: the last events, or every event of one project. */
export const eventListSchema = z.strictObject({
  version: z.literal(1),
  events: z.array(flagstaffEventSchema),
});
export type EventList = z.infer<typeof eventListSchema>;

/** A page of a search, with how many events match in all. */
export const eventSearchResultSchema = eventListSchema.extend({ totalEvents: z.number().int() });
export type EventSearchResult = z.infer<typeof eventSearchResultSchema>;

/** Every event of one feature. */
export const featureEventsSchema = eventSearchResultSchema.extend({ toggleName: z.string() });
export type FeatureEvents = z.infer<typeof featureEventsSchema>;
