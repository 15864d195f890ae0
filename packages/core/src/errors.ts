/** Error kinds core can raise; adapters map them to their own status codes. */
export type ErrorCode =
  | 'VALIDATION'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'LIMIT_EXCEEDED'
  | 'RATE_LIMITED'
  | 'STORE_UNAVAILABLE'
  /** Maintenance mode is on: changes are refused until an Admin turns it off. */
  | 'MAINTENANCE';

/** The one error class of Flagstaff: a code plus a message that names the property or resource. */
export class FlagstaffError extends Error {
  override readonly name = 'FlagstaffError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const notFound = (what: string, id: string | number): FlagstaffError =>
  new FlagstaffError('NOT_FOUND', `Could not find ${what} "${id}".`, { resource: what, id });

/** A clash with what exists; `path` names the property that clashes (the UI shows it there). */
export const conflict = (message: string, path?: string): FlagstaffError =>
  new FlagstaffError('CONFLICT', message, path ? { path } : undefined);

export const invalid = (path: string, message: string): FlagstaffError =>
  new FlagstaffError('VALIDATION', `"${path}" ${message}`, { path });

export const isFlagstaffError = (e: unknown, code?: ErrorCode): e is FlagstaffError =>
  e instanceof FlagstaffError && (code === undefined || e.code === code);
