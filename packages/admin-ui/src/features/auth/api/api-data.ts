import { ApiError } from '../../../api/errors';

/** What every call of the generated client resolves to. */
interface ClientResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The server's message in an error body (`message`, or the first of `details`). */
function errorOf(body: unknown, status: number): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: unknown;
    name?: unknown;
    details?: { message?: unknown }[];
  };
  const detail = Array.isArray(b.details) ? b.details[0]?.message : undefined;
  const message =
    typeof b.message === 'string'
      ? b.message
      : typeof detail === 'string'
        ? detail
        : typeof body === 'string' && body
          ? body
          : `The server answered ${status}.`;
  return new ApiError(status, message, typeof b.name === 'string' ? b.name : undefined, body);
}

/**
 * The answer of a generated-client call, typed by the route's OpenAPI response schema (inferred,
 * never given), or an ApiError carrying the server's message.
 */
export async function apiData<Data>(call: Promise<ClientResult<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(error, response.status);
  return data as Data;
}
