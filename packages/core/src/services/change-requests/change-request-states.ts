import type {
  ChangeRequestRecord,
  ChangeRequestState,
  ChangeRequestUser,
} from '../../domain/change-request.js';
import { FlagstaffError } from '../../errors.js';

/** Who asks for a transition, and what the policy lets them do in the request's environment. */
export interface Participant {
  user: ChangeRequestUser;
  mayApprove: boolean;
  mayApply: boolean;
}

/** What a transition does beyond the new state: the events it records and the work it asks for. */
export type TransitionEffect =
  | { kind: 'state'; record: ChangeRequestRecord; events: string[] }
  | { kind: 'apply'; record: ChangeRequestRecord };

export const sameUser = (a: ChangeRequestUser, b: ChangeRequestUser): boolean =>
  a.id !== null && b.id !== null ? a.id === b.id : a.id === b.id && a.username === b.username;

const refuse = (code: 'FORBIDDEN' | 'CONFLICT' | 'VALIDATION', message: string): never => {
  throw new FlagstaffError(code, message, code === 'VALIDATION' ? { path: 'state' } : undefined);
};

/** Which states may follow which (the edges of the state machine). */
export const TRANSITIONS: Readonly<Record<ChangeRequestState, readonly ChangeRequestState[]>> = {
  Draft: ['In review', 'Cancelled'],
  'In review': ['Approved', 'Rejected', 'Cancelled'],
  Approved: ['Applied', 'Scheduled', 'Rejected', 'Cancelled'],
  Scheduled: ['Applied', 'Scheduled', 'Rejected', 'Cancelled'],
  Applied: [],
  Cancelled: [],
  Rejected: [],
};

/**
 * The state machine of a change request, pure: the next record for a requested state, or the
 * refusal (FORBIDDEN for who, CONFLICT for when). Applying is left to the caller (`apply`), which
 * runs the changes and then marks the request Applied.
 */
export function transition(
  record: ChangeRequestRecord,
  to: ChangeRequestState,
  who: Participant,
  at: string,
  options: { scheduledAt?: string | undefined; now: number },
): TransitionEffect {
  const from = record.state;
  if (!TRANSITIONS[from].includes(to))
    refuse(
      'CONFLICT',
      `A change request in state "${from}" cannot become "${to}"${
        TRANSITIONS[from].length
          ? ` (it can become ${TRANSITIONS[from].map((s) => `"${s}"`).join(', ')})`
          : ''
      }.`,
    );
  const isAuthor = sameUser(record.createdBy, who.user);
  const next = { ...record, state: to, updatedAt: at };
  switch (to) {
    case 'In review':
      if (!isAuthor) refuse('FORBIDDEN', 'Only the author of a change request can send it to review.');
      if (record.changes.length === 0)
        refuse('CONFLICT', 'A change request without changes cannot be sent to review.');
      return { kind: 'state', record: next, events: ['change-request-sent-to-review'] };
    case 'Cancelled':
      if (!isAuthor)
        refuse('FORBIDDEN', 'Only the author of a change request can cancel it; reviewers reject it.');
      return { kind: 'state', record: { ...next, schedule: null }, events: ['change-request-cancelled'] };
    case 'Rejected':
      if (isAuthor)
        refuse('FORBIDDEN', 'The author of a change request cannot reject it; the author cancels it.');
      if (!who.mayApprove)
        refuse('FORBIDDEN', 'You need the "APPROVE_CHANGE_REQUEST" permission to reject a change request.');
      return {
        kind: 'state',
        record: {
          ...next,
          schedule: null,
          rejections: [...record.rejections, { user: who.user, createdAt: at }],
        },
        events: ['change-request-rejected'],
      };
    case 'Approved': {
      if (isAuthor) refuse('FORBIDDEN', 'The author of a change request cannot approve it.');
      if (!who.mayApprove)
        refuse('FORBIDDEN', 'You need the "APPROVE_CHANGE_REQUEST" permission to approve a change request.');
      if (record.approvals.some((a) => sameUser(a.user, who.user)))
        refuse('CONFLICT', 'You have already approved this change request.');
      const approvals = [...record.approvals, { user: who.user, createdAt: at }];
      const reached = approvals.length >= record.minApprovals;
      return {
        kind: 'state',
        record: { ...next, approvals, state: reached ? 'Approved' : 'In review' },
        events: reached
          ? ['change-request-approval-added', 'change-request-approved']
          : ['change-request-approval-added'],
      };
    }
    case 'Scheduled': {
      if (!who.mayApply)
        refuse('FORBIDDEN', 'You need the "APPLY_CHANGE_REQUEST" permission to schedule a change request.');
      if (!options.scheduledAt)
        refuse('VALIDATION', '"scheduledAt" is required to schedule a change request.');
      const scheduledAt = new Date(options.scheduledAt as string);
      if (scheduledAt.getTime() <= options.now) refuse('VALIDATION', '"scheduledAt" must be in the future.');
      return {
        kind: 'state',
        record: {
          ...next,
          failure: null,
          schedule: { scheduledAt: scheduledAt.toISOString(), status: 'pending', scheduledBy: who.user },
        },
        events: ['change-request-scheduled'],
      };
    }
    case 'Applied':
      if (!who.mayApply)
        refuse('FORBIDDEN', 'You need the "APPLY_CHANGE_REQUEST" permission to apply a change request.');
      return { kind: 'apply', record: next };
    default:
      return refuse('CONFLICT', `A change request cannot become "${to}".`);
  }
}

/**
 * A request whose changes are edited goes back to review when it was past it: its approvals were
 * for other changes, and a schedule would apply what nobody approved.
 */
export function afterEdit(record: ChangeRequestRecord, at: string): ChangeRequestRecord {
  if (record.state === 'Draft' || record.state === 'In review')
    return { ...record, updatedAt: at, failure: null, approvals: [] };
  if (record.state === 'Approved' || record.state === 'Scheduled')
    return { ...record, state: 'In review', updatedAt: at, failure: null, approvals: [], schedule: null };
  throw new FlagstaffError(
    'CONFLICT',
    `A change request in state "${record.state}" can no longer be changed.`,
  );
}
