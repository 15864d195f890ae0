import type { ChangeRequestRecord, ChangeRequestUser, StoredChange } from '../../domain/change-request.js';
import type { ReadRepositories } from '../../ports/store.js';
import { conflictOf } from './change-actions.js';

export interface ParticipantView {
  id: number | null;
  username: string;
  imageUrl: string | null;
}

export interface ChangeView {
  id: number;
  action: StoredChange['action'];
  payload: unknown;
  createdBy: ParticipantView;
  createdAt: string;
  /** What the change was drafted against (the switch, strategy, order, variants or segment then). */
  before: unknown;
  /** Why the change no longer applies as drafted. */
  conflict?: string;
  /** With a conflict: the target as drafted against, the draft, and the target now. */
  conflictDetails?: { before: unknown; draft: unknown; now: unknown };
}

/** A change request as the reference's clients read it. */
export interface ChangeRequestView {
  id: number;
  title: string;
  project: string;
  environment: string;
  state: ChangeRequestRecord['state'];
  minApprovals: number;
  createdBy: ParticipantView;
  createdAt: string;
  features: { name: string; conflict?: string; changes: ChangeView[] }[];
  segments: (ChangeView & { name: string })[];
  approvals: { createdBy: ParticipantView; createdAt: string }[];
  rejections: { createdBy: ParticipantView; createdAt: string }[];
  comments: { id: number; text: string; createdBy: ParticipantView; createdAt: string }[];
  reviewers: ParticipantView[];
  schedule?: { scheduledAt: string; status: 'pending' | 'suspended' | 'failed'; reason?: string };
  /** Why the last attempt to apply failed (also `conflict`, as the reference names it). */
  conflict?: string;
}

/** Resolves user names to the reference's user shape, reading each user once. */
export function createUserViews(repos: ReadRepositories) {
  const images = new Map<number, Promise<string | null>>();
  const imageOf = (id: number) => {
    let found = images.get(id);
    if (!found) {
      found = repos.users.get(id).then((u) => u?.imageUrl ?? null);
      images.set(id, found);
    }
    return found;
  };
  return async (user: ChangeRequestUser): Promise<ParticipantView> => ({
    id: user.id,
    username: user.username,
    imageUrl: user.id === null ? null : await imageOf(user.id),
  });
}

/** The wire shape of a request, with each change's conflict computed against the state now. */
export async function viewOf(
  repos: ReadRepositories,
  record: ChangeRequestRecord,
): Promise<ChangeRequestView> {
  const userView = createUserViews(repos);
  const live = record.state !== 'Applied' && record.state !== 'Cancelled' && record.state !== 'Rejected';
  const scope = { project: record.project, environment: record.environment };
  const changeView = async (change: StoredChange): Promise<ChangeView> => {
    const conflict = live ? await conflictOf(repos, scope, change) : null;
    return {
      id: change.id,
      action: change.action,
      payload: change.payload,
      createdBy: await userView(change.createdBy),
      createdAt: change.createdAt,
      before: change.base,
      ...(conflict && {
        conflict: conflict.message,
        conflictDetails: { before: change.base, draft: change.payload, now: conflict.now },
      }),
    };
  };
  const features = new Map<string, ChangeView[]>();
  const segments: ChangeRequestView['segments'] = [];
  for (const change of record.changes) {
    const view = await changeView(change);
    if (change.action === 'updateSegment')
      segments.push({ ...view, name: (change.payload as { name: string }).name });
    else features.set(change.feature ?? '', [...(features.get(change.feature ?? '') ?? []), view]);
  }
  const users = await Promise.all(
    record.reviewers.map(async (id) => {
      const user = await repos.users.get(id);
      return {
        id,
        username: user?.username ?? user?.email ?? `user-${id}`,
        imageUrl: user?.imageUrl ?? null,
      };
    }),
  );
  return {
    id: record.id,
    title: record.title,
    project: record.project,
    environment: record.environment,
    state: record.state,
    minApprovals: record.minApprovals,
    createdBy: await userView(record.createdBy),
    createdAt: record.createdAt,
    features: [...features].map(([name, changes]) => {
      const conflict = changes.find((c) => c.conflict)?.conflict;
      return { name, ...(conflict && { conflict }), changes };
    }),
    segments,
    approvals: await Promise.all(
      record.approvals.map(async (a) => ({ createdBy: await userView(a.user), createdAt: a.createdAt })),
    ),
    rejections: await Promise.all(
      record.rejections.map(async (a) => ({ createdBy: await userView(a.user), createdAt: a.createdAt })),
    ),
    comments: await Promise.all(
      record.comments.map(async (c) => ({
        id: c.id,
        text: c.text,
        createdBy: await userView(c.user),
        createdAt: c.createdAt,
      })),
    ),
    reviewers: users,
    ...(record.schedule && {
      schedule: {
        scheduledAt: record.schedule.scheduledAt,
        status: record.schedule.status,
        ...(record.schedule.reason !== undefined && { reason: record.schedule.reason }),
      },
    }),
    ...(record.failure && { conflict: record.failure }),
  };
}

/** One row of GET /api/admin/search/change-requests. */
export const searchRowOf = (record: ChangeRequestRecord) => ({
  id: record.id,
  title: record.title,
  project: record.project,
  environment: record.environment,
  state: record.state,
  createdBy: { id: record.createdBy.id, username: record.createdBy.username },
  createdAt: record.createdAt,
  features: [...new Set(record.changes.filter((c) => c.feature).map((c) => c.feature as string))],
  segments: record.changes
    .filter((c) => c.action === 'updateSegment')
    .map((c) => (c.payload as { name: string }).name),
});
