import type {
  ChangeRequestFilter,
  ChangeRequestRecord,
  ChangeRequestSetting,
  NewChangeRequest,
} from '../domain/change-request.js';

/** Change requests and, per project environment, whether they are required. */
export interface ChangeRequestRepository {
  /** The settings stored for a project's environments (environments never configured are absent). */
  listSettings(project: string): Promise<ChangeRequestSetting[]>;
  /** Stores the setting of one project environment, replacing what was there. */
  saveSetting(setting: ChangeRequestSetting): Promise<void>;
  get(id: number): Promise<ChangeRequestRecord | null>;
  /** Requests matching the filter, newest first. */
  list(filter: ChangeRequestFilter): Promise<ChangeRequestRecord[]>;
  /** Scheduled requests whose schedule is pending and due at `now` (RFC 3339), oldest due first. */
  listDue(now: string): Promise<ChangeRequestRecord[]>;
  /** Stores a new request; returns its id (never reused). */
  insert(request: NewChangeRequest): Promise<number>;
  /** Replaces a stored request; false when there is none with its id. */
  update(request: ChangeRequestRecord): Promise<boolean>;
  delete(id: number): Promise<boolean>;
}
