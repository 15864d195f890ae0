import { z } from 'zod';

/** The states of a change request, spelled as the reference spells them on the wire. */
export const CHANGE_REQUEST_STATES = [
  'Draft',
  'In review',
  'Approved',
  'Scheduled',
  'Applied',
  'Cancelled',
  'Rejected',
] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];

/** States in which a request still waits for something (the reference's "open"). */
export const OPEN_STATES: ReadonlySet<ChangeRequestState> = new Set([
  'Draft',
  'In review',
  'Approved',
  'Scheduled',
]);

/** What one change does, each matching a direct route's body. */
export const CHANGE_ACTIONS = [
  'updateEnabled',
  'addStrategy',
  'updateStrategy',
  'deleteStrategy',
  'reorderStrategy',
  'patchVariant',
  'archiveFeature',
  'addDependency',
  'deleteDependency',
  'updateSegment',
] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** Feature events whose inverse `POST /api/admin/events/:id/revert` computes (the UI offers Revert on these). */
export const REVERTIBLE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'feature-environment-enabled',
  'feature-environment-disabled',
  'feature-strategy-add',
  'feature-strategy-update',
  'feature-strategy-remove',
  'strategy-order-changed',
  'feature-environment-variants-updated',
  'feature-dependency-added',
  'feature-dependency-removed',
  'feature-metadata-updated',
]);

/** PUT …/environments/:environment/change-requests/config. */
export const changeRequestConfigInputSchema = z
  .object({
    changeRequestsEnabled: z.boolean({ message: 'must be true or false' }),
    requiredApprovals: z
      .number({ message: 'must be a whole number from 1 to 10' })
      .int('must be a whole number from 1 to 10')
      .min(1, 'must be at least 1')
      .max(10, 'must be at most 10')
      .optional(),
  })
  .strict();

/** One change as a client sends it; the payload is checked per action by the direct route's schema. */
export const changeInputSchema = z.object({
  feature: z.string().min(1, 'must name a feature').nullable().optional(),
  action: z.enum(CHANGE_ACTIONS, {
    message: `must be one of ${CHANGE_ACTIONS.map((a) => `"${a}"`).join(', ')}`,
  }),
  payload: z.unknown().optional(),
});
export type ChangeInput = z.infer<typeof changeInputSchema>;

export const changeInputListSchema = z.array(changeInputSchema).min(1, 'must list at least one change');

/** PUT …/change-requests/:id/state. */
export const stateInputSchema = z.object({
  state: z.enum(CHANGE_REQUEST_STATES, {
    message: `must be one of ${CHANGE_REQUEST_STATES.map((s) => `"${s}"`).join(', ')}`,
  }),
  comment: z.string().max(2000, 'must be at most 2000 characters').optional(),
  scheduledAt: z.string().datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).optional(),
});
export type StateInput = z.infer<typeof stateInputSchema>;

export const titleInputSchema = z.object({
  title: z.string().trim().min(1, 'must be a non-empty title').max(255, 'must be at most 255 characters'),
});
export const commentInputSchema = z.object({
  text: z.string().trim().min(1, 'must be a non-empty comment').max(2000, 'must be at most 2000 characters'),
});
export const reviewersInputSchema = z.object({
  reviewers: z.array(z.number().int().positive('must be user ids')).max(50, 'must list at most 50 users'),
});

/** Whether change requests guard an environment of a project, and how many approvals they need. */
export interface ChangeRequestSetting {
  project: string;
  environment: string;
  enabled: boolean;
  requiredApprovals: number;
}

/** Who did something on a request. */
export interface ChangeRequestUser {
  id: number | null;
  username: string;
}

/** One change as stored: what it does and the state of its target when it was drafted. */
export interface StoredChange {
  id: number;
  feature: string | null;
  action: ChangeAction;
  payload: unknown;
  /** The target (feature in the environment, strategy, segment) as it was when the change was drafted. */
  base: unknown;
  createdBy: ChangeRequestUser;
  createdAt: string;
}

export interface ChangeRequestSchedule {
  scheduledAt: string;
  status: 'pending' | 'suspended' | 'failed';
  reason?: string;
  scheduledBy: ChangeRequestUser;
}

/** A change request as stored. */
export interface ChangeRequestRecord {
  id: number;
  project: string;
  environment: string;
  title: string;
  state: ChangeRequestState;
  createdBy: ChangeRequestUser;
  createdAt: string;
  updatedAt: string;
  minApprovals: number;
  changes: StoredChange[];
  approvals: { user: ChangeRequestUser; createdAt: string }[];
  rejections: { user: ChangeRequestUser; createdAt: string }[];
  comments: { id: number; text: string; user: ChangeRequestUser; createdAt: string }[];
  /** Users asked to review (their ids). */
  reviewers: number[];
  schedule: ChangeRequestSchedule | null;
  /** Why the last attempt to apply failed; cleared when a change is edited. */
  failure: string | null;
}

export type NewChangeRequest = Omit<ChangeRequestRecord, 'id'>;

/** Which stored requests a listing wants. */
export interface ChangeRequestFilter {
  project?: string | undefined;
  environment?: string | undefined;
  states?: readonly ChangeRequestState[] | undefined;
  createdByUserId?: number | undefined;
}

/** A participant of a request as reads show it. */
export const participantViewSchema = z.strictObject({
  id: z.number().int().nullable(),
  username: z.string(),
  imageUrl: z.string().nullable(),
});

/** One change of a request as reads show it, with its conflict against the state now. */
export const changeViewSchema = z.strictObject({
  id: z.number().int(),
  action: z.enum(CHANGE_ACTIONS),
  // A change's payload and the state it was drafted against are the action's own shapes.
  payload: z.unknown(),
  createdBy: participantViewSchema,
  createdAt: z.string(),
  before: z.unknown(),
  conflict: z.string().optional(),
  conflictDetails: z.strictObject({ before: z.unknown(), draft: z.unknown(), now: z.unknown() }).optional(),
});

const reviewSchema = z.strictObject({ createdBy: participantViewSchema, createdAt: z.string() });

/** A change request as the reference's clients read it. */
export const changeRequestViewSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  project: z.string(),
  environment: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  minApprovals: z.number().int(),
  createdBy: participantViewSchema,
  createdAt: z.string(),
  features: z.array(
    z.strictObject({ name: z.string(), conflict: z.string().optional(), changes: z.array(changeViewSchema) }),
  ),
  segments: z.array(changeViewSchema.extend({ name: z.string() })),
  approvals: z.array(reviewSchema),
  rejections: z.array(reviewSchema),
  comments: z.array(
    z.strictObject({
      id: z.number().int(),
      text: z.string(),
      createdBy: participantViewSchema,
      createdAt: z.string(),
    }),
  ),
  reviewers: z.array(participantViewSchema),
  schedule: z
    .strictObject({
      scheduledAt: z.string(),
      status: z.enum(['pending', 'suspended', 'failed']),
      reason: z.string().optional(),
    })
    .optional(),
  conflict: z.string().optional(),
});
export type ChangeRequestViewShape = z.infer<typeof changeRequestViewSchema>;

/** The change-request setting of each environment of a project. */
export const changeRequestConfigSchema = z.array(
  z.strictObject({
    environment: z.string(),
    type: z.string(),
    changeRequestEnabled: z.boolean(),
    requiredApprovals: z.number().int(),
  }),
);

/** `GET …/change-requests/scheduled`. */
export const scheduledChangeRequestsSchema = z.array(
  z.strictObject({ id: z.number().int(), title: z.string() }),
);

/** `GET …/change-requests/count`. */
export const changeRequestCountSchema = z.strictObject({
  total: z.number().int(),
  applied: z.number().int(),
  rejected: z.number().int(),
  reviewRequired: z.number().int(),
  approved: z.number().int(),
  scheduled: z.number().int(),
});

/** `GET …/change-requests/available-reviewers/:environment`. */
export const availableReviewersSchema = z.strictObject({
  reviewers: z.array(
    z.strictObject({
      id: z.number().int(),
      name: z.string().optional(),
      email: z.string(),
      username: z.string().optional(),
      imageUrl: z.string().optional(),
    }),
  ),
});

const count = (max?: number) => {
  const n = z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must not be negative');
  return (max === undefined ? n : n.max(max, `must be at most ${max}`)).optional();
};

/** Query of `GET /api/admin/search/change-requests`. */
export const changeRequestSearchSchema = z.object({
  createdBy: count(),
  requestedApproverId: count(),
  state: z.enum(['open', 'closed'], { message: 'must be "open" or "closed"' }).optional(),
  offset: count(),
  limit: count(1000),
});

/** `GET /api/admin/search/change-requests`. */
export const changeRequestSearchResultSchema = z.strictObject({
  changeRequests: z.array(
    z.strictObject({
      id: z.number().int(),
      title: z.string(),
      project: z.string(),
      environment: z.string(),
      state: z.enum(CHANGE_REQUEST_STATES),
      createdBy: z.strictObject({ id: z.number().int().nullable(), username: z.string() }),
      createdAt: z.string(),
      features: z.array(z.string()),
      segments: z.array(z.string()),
    }),
  ),
  total: z.number().int(),
});

/** The inverse change a revert made or drafted. */
const revertChangeSchema = z.strictObject({
  feature: z.string().nullable().optional(),
  action: z.enum([...CHANGE_ACTIONS, 'updateMetadata']),
  payload: z.unknown().optional(),
});

/** `POST /api/admin/events/:id/revert`: applied at once, or added to the caller's change request. */
export const revertResultSchema = z.union([
  z.strictObject({ applied: z.literal(true), change: revertChangeSchema }),
  z.strictObject({
    applied: z.literal(false),
    change: revertChangeSchema,
    changeRequest: changeRequestViewSchema,
  }),
]);
