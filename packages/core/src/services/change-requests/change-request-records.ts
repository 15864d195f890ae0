import type { Caller } from '../../auth/caller.js';
import type { ChangeRequestRecord, ChangeRequestUser } from '../../domain/change-request.js';
import { notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';

/** The author or participant a caller is, as requests record them. */
export const userOf = (caller: Caller): ChangeRequestUser => ({
  id: caller.actor.userId,
  username: caller.actor.name,
});

/** A stored request of the project; NOT_FOUND for another project's (ids are instance-wide). */
export async function requireRequest(
  repos: Pick<ReadRepositories, 'changeRequests'>,
  project: string,
  id: number,
): Promise<ChangeRequestRecord> {
  const found = Number.isInteger(id) ? await repos.changeRequests.get(id) : null;
  if (!found || found.project !== project) throw notFound('change request', String(id));
  return found;
}
