import { randomUUID } from 'node:crypto';
import { type ErrorCode, isFlagstaffError, type Logger } from '@flagstaff/core';

/** The login path the reference points unauthenticated callers at. */
export const LOGIN_PATH = '/auth/simple/login';

/** An error body as the contract defines it (`path` only on 401). */
export interface ErrorBody {
  id: string;
  name: string;
  message: string;
  path?: string;
  /** `path` names the property at fault (as the reference's OpenAPI validation errors do). */
  details?: { message: string; description?: string; path?: string }[];
}

/** An HTTP-level failure raised by the router itself (body parsing, content types, unknown routes). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Core error codes → status and error name. LIMIT_EXCEEDED is a 400 `ExceedsLimitError`, as in
 * the reference (creating past a project's featureLimit is a request the caller must change).
 */
export const CODE_STATUS: Readonly<Record<ErrorCode, { status: number; name: string }>> = {
  VALIDATION: { status: 400, name: 'ValidationError' },
  UNAUTHENTICATED: { status: 401, name: 'AuthenticationRequired' },
  FORBIDDEN: { status: 403, name: 'NoAccessError' },
  NOT_FOUND: { status: 404, name: 'NotFoundError' },
  CONFLICT: { status: 409, name: 'NameExistsError' },
  LIMIT_EXCEEDED: { status: 400, name: 'ExceedsLimitError' },
  RATE_LIMITED: { status: 429, name: 'TooManyRequestsError' },
  STORE_UNAVAILABLE: { status: 503, name: 'ServiceUnavailableError' },
  MAINTENANCE: { status: 503, name: 'MaintenanceError' },
};

/** The reference's 401 wording, adapted to whether a header was sent at all. */
export const authenticationRequired = (hadHeader: boolean): HttpError =>
  new HttpError(
    401,
    'AuthenticationRequired',
    hadHeader
      ? `You must log in to use this service. The authorization header you sent was not a valid API token, so we could not authorize you. Try logging in at ${LOGIN_PATH}`
      : `You must log in to use this service. Your request had no authorization header, so we could not authorize you. Try logging in at ${LOGIN_PATH}`,
  );

export const notFoundRoute = (method: string, path: string): HttpError =>
  new HttpError(
    404,
    'NotFoundError',
    `There is no ${method} ${path} here. Check the path against the API documentation.`,
  );

/** Each problem of a core error with the property it names, so a form can show it by that field. */
function problemsOf(
  details: Readonly<Record<string, unknown>> | undefined,
  message: string,
): { message: string; path?: string }[] {
  const issues = Array.isArray(details?.issues) ? details.issues : [];
  const listed = issues.flatMap((issue: unknown) =>
    typeof issue === 'object' && issue !== null && 'message' in issue && typeof issue.message === 'string'
      ? [
          {
            message: issue.message,
            ...('path' in issue && typeof issue.path === 'string' ? { path: issue.path } : {}),
          },
        ]
      : [],
  );
  if (listed.length > 0) return listed;
  const path = typeof details?.path === 'string' ? details.path : undefined;
  return [{ message, ...(path ? { path } : {}) }];
}

/** Maps any error to a status and the contract's body; unknown errors are logged and leak nothing. */
export function toErrorResponse(error: unknown, logger: Logger): { status: number; body: ErrorBody } {
  const id = randomUUID();
  if (isFlagstaffError(error)) {
    const { status, name } = CODE_STATUS[error.code];
    const body: ErrorBody = { id, name, message: error.message };
    if (status === 401) body.path = LOGIN_PATH;
    if (status === 400 || status === 409) {
      const details = problemsOf(error.details, error.message);
      if (status === 400 || details[0]?.path) body.details = details;
    }
    return { status, body };
  }
  if (error instanceof HttpError) {
    const httpError = error;
    const body: ErrorBody = { id, name: httpError.errorName, message: httpError.message };
    if (httpError.status === 401) body.path = LOGIN_PATH;
    return { status: httpError.status, body };
  }
  logger.error('unexpected error while handling a request', {
    errorId: id,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return {
    status: 500,
    body: {
      id,
      name: 'InternalServerError',
      message: `Something went wrong on our side. Quote error id ${id} when you report it.`,
    },
  };
}
