import type { Caller } from '../../auth/caller.js';
import {
  type ChangeInput,
  type ChangeRequestRecord,
  changeInputListSchema,
  changeInputSchema,
  type StoredChange,
} from '../../domain/change-request.js';
import { parseWith } from '../../domain/parse.js';
import { strategyConfigSchema } from '../../domain/strategy.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { OperationDeps } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import type { Actor } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { prepareStrategyConfig } from '../features/strategy-rules.js';
import { ACTION_PERMISSION, currentStateOf, parsePayload } from './change-actions.js';
import { requestEvents } from './change-request-apply.js';
import { requireRequest, userOf } from './change-request-records.js';
import { sameUser } from './change-request-states.js';

/** One change or a list, each parsed on its own so errors name the property as the client sent it. */
export const parseChanges = (input: unknown): ChangeInput[] =>
  Array.isArray(input) ? parseWith(changeInputListSchema, input) : [parseWith(changeInputSchema, input)];

/** Each change needs the permission its direct route needs, in the request's environment. */
export async function requireChangePermissions(
  deps: OperationDeps,
  caller: Caller,
  scope: { project: string; environment: string },
  changes: readonly ChangeInput[],
): Promise<void> {
  for (const change of changes) await deps.policy.require(caller, ACTION_PERMISSION[change.action], scope);
}

export const requireAuthor = (record: ChangeRequestRecord, caller: Caller, what: string): void => {
  if (!sameUser(record.createdBy, userOf(caller)))
    throw new FlagstaffError('FORBIDDEN', `Only the author of a change request can ${what}.`);
};

/** A request for a command of its author (`what` names the command), or of anyone (`what` null). */
export async function requestFor(
  repos: ReadRepositories,
  caller: Caller,
  input: { project: string; id: number },
  what: string | null,
): Promise<ChangeRequestRecord> {
  const record = await requireRequest(repos, input.project, input.id);
  if (what !== null) requireAuthor(record, caller, what);
  return record;
}

/** Two changes that set the same thing: the later replaces the earlier in a draft. */
export const sameTarget = (a: Pick<StoredChange, 'feature' | 'action' | 'payload'>, b: typeof a): boolean => {
  if (a.action !== b.action || a.feature !== b.feature) return false;
  const idOf = (c: typeof a) => (c.payload as { id?: unknown } | null)?.id;
  switch (a.action) {
    case 'updateEnabled':
    case 'reorderStrategy':
    case 'patchVariant':
    case 'archiveFeature':
      return true;
    case 'updateStrategy':
    case 'deleteStrategy':
    case 'updateSegment':
      return idOf(a) === idOf(b);
    default:
      return false;
  }
};

/** Checks a change as its direct route would (its permission is the guard's), and records what it acts on now. */
export async function prepareChange(
  repos: ReadRepositories,
  caller: Caller,
  project: string,
  environment: string,
  input: ChangeInput,
): Promise<Omit<StoredChange, 'id' | 'createdAt'>> {
  const payload = parsePayload(input);
  const feature = input.action === 'updateSegment' ? null : (input.feature ?? null);
  // The strategy checks that read the store (percentages, segments) run as the direct route's do.
  if (input.action === 'addStrategy' || input.action === 'updateStrategy')
    await prepareStrategyConfig(repos, feature ?? '', parseWith(strategyConfigSchema, payload), 'payload');
  if (input.action === 'updateSegment') {
    const { id } = payload as { id: number };
    const users = await repos.strategies.list({ segmentId: id });
    if (!users.some((s) => s.projectId === project && s.environment === environment))
      throw new FlagstaffError(
        'VALIDATION',
        `"payload.id" segment ${id} is used by no strategy of project "${project}" in "${environment}".`,
        { path: 'payload.id' },
      );
  }
  const base = await currentStateOf(
    repos,
    { project, environment },
    { feature, action: input.action, payload },
  );
  if ((input.action === 'updateStrategy' || input.action === 'deleteStrategy') && base === null)
    throw notFound('strategy', (payload as { id: string }).id);
  return { feature, action: input.action, payload, base, createdBy: userOf(caller) };
}

/** Saves an edited request and its events, refusing when it changed since it was read. */
export async function save(
  tx: Repositories,
  actor: Actor,
  before: ChangeRequestRecord,
  next: ChangeRequestRecord,
  events: readonly string[],
): Promise<void> {
  const current = await tx.changeRequests.get(before.id);
  if (!current || current.updatedAt !== before.updatedAt || current.state !== before.state)
    throw new FlagstaffError(
      'CONFLICT',
      `Change request ${before.id} changed meanwhile; reload it and try again.`,
    );
  await tx.changeRequests.update(next);
  await writeEvents(tx, actor, next.updatedAt, requestEvents(next, events));
}
