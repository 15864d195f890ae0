import { ApiError } from '../api/errors';

/** What a call of the generated client resolves to: `data` typed by the route's response schema. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

const messageOf = (error: unknown, status: number): { message: string; name?: string } => {
  const body =
    typeof error === 'object' && error !== null ? (error as { message?: unknown; name?: unknown }) : {};
  if (typeof body.message === 'string' && body.message)
    return { message: body.message, name: typeof body.name === 'string' ? body.name : undefined };
  return { message: typeof error === 'string' && error ? error : `The server answered ${status}.` };
};

/** The body of a successful answer, as the generated client types it; an ApiError with the server's message otherwise. */
export async function answerOf<Data>(call: Promise<Answer<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const { message, name } = messageOf(error, response.status);
    throw new ApiError(response.status, message, name, error);
  }
  return data as Data;
}
