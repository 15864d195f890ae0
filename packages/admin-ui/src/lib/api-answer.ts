import { ApiError } from '../api/errors';

/** What a call of the generated client resolves to: `data` typed by the route's response schema. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * The error an unsuccessful answer becomes: the server's `message`, else the first of its `details`,
 * else a plain-text body, else the status.
 */
export function apiErrorOf(body: unknown, status: number): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: unknown;
    name?: unknown;
    details?: { message?: unknown }[];
  };
  const detail = Array.isArray(b.details) ? b.details[0]?.message : undefined;
  const message =
    typeof b.message === 'string' && b.message
      ? b.message
      : typeof detail === 'string' && detail
        ? detail
        : typeof body === 'string' && body
          ? body
          : `The server answered ${status}.`;
  return new ApiError(status, message, typeof b.name === 'string' ? b.name : undefined, body);
}

/**
 * The body of a successful answer, typed by the route's OpenAPI response schema (inferred, never
 * given); an ApiError with the server's message otherwise.
 */
export async function answerOf<Data>(call: Promise<Answer<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorOf(error, response.status);
  return data as Data;
}
