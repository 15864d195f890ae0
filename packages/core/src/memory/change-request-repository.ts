import type { ChangeRequestRecord } from '../domain/change-request.js';
import type { ChangeRequestRepository } from '../ports/change-request-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { compareTime, type Sync } from './support.js';

/** Change requests and their per-environment settings over a session. */
export function createChangeRequestRepository(s: Session): Sync<ChangeRequestRepository> {
  const settings = s.table('changeRequestSettings');
  const requests = s.table('changeRequests');
  const newestFirst = (a: ChangeRequestRecord, b: ChangeRequestRecord) => b.id - a.id;
  return {
    listSettings: (project) =>
      settings
        .rows()
        .filter((r) => r.project === project)
        .sort((a, b) => a.environment.localeCompare(b.environment))
        .map(copy),
    saveSetting(setting) {
      settings.set(`${setting.project}\u0000${setting.environment}`, copy(setting));
    },
    get: (id) => copy(requests.get(id) ?? null),
    list: (filter) =>
      requests
        .rows()
        .filter(
          (r) =>
            (filter.project === undefined || r.project === filter.project) &&
            (filter.environment === undefined || r.environment === filter.environment) &&
            (filter.states === undefined || filter.states.includes(r.state)) &&
            (filter.createdByUserId === undefined || r.createdBy.id === filter.createdByUserId),
        )
        .sort(newestFirst)
        .map(copy),
    listDue: (now) =>
      requests
        .rows()
        .filter(
          (r) =>
            r.state === 'Scheduled' &&
            r.schedule?.status === 'pending' &&
            Date.parse(r.schedule.scheduledAt) <= Date.parse(now),
        )
        .sort(
          (a, b) => compareTime(a.schedule?.scheduledAt ?? '', b.schedule?.scheduledAt ?? '') || a.id - b.id,
        )
        .map(copy),
    insert(request) {
      const id = s.nextId('changeRequests');
      requests.set(id, { ...copy(request), id });
      return id;
    },
    update(request) {
      if (!requests.has(request.id)) return false;
      requests.set(request.id, copy(request));
      return true;
    },
    delete: (id) => requests.delete(id),
  };
}
