import { ApiError } from '../../../api/errors';

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

const messageOf = (body: unknown, status: number): { message: string; name?: string } => {
  if (typeof body === 'object' && body !== null) {
    const b = body as { message?: unknown; name?: unknown; details?: { message?: unknown }[] };
    const detail =
      Array.isArray(b.details) && typeof b.details[0]?.message === 'string' ? b.details[0].message : null;
    const message = typeof b.message === 'string' ? b.message : detail;
    if (message) return { message, name: typeof b.name === 'string' ? b.name : undefined };
  }
  return { message: typeof body === 'string' && body ? body : `The server answered ${status}.` };
};

/** The answer's body, typed by the generated client from the route's output schema; an ApiError otherwise. */
export async function answerOf<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const { message, name } = messageOf(error, response.status);
    throw new ApiError(response.status, message, name, error);
  }
  return data as T;
}
