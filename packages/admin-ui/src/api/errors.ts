/** An error answer of the API, carrying the server's `message` to show the user. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName: string | undefined,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const messageOf = (body: unknown, status: number): { message: string; name?: string } => {
  if (typeof body === 'object' && body !== null) {
    const b = body as { message?: unknown; name?: unknown; details?: { message?: unknown }[] };
    const detail =
      Array.isArray(b.details) && typeof b.details[0]?.message === 'string' ? b.details[0].message : null;
    const message = typeof b.message === 'string' ? b.message : detail;
    if (message) return { message, name: typeof b.name === 'string' ? b.name : undefined };
  }
  if (typeof body === 'string' && body) return { message: body };
  return { message: `The server answered ${status}.` };
};

interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Resolves a generated-client call to its body typed as `T`, or throws an ApiError with the server's
 * message. `T` narrows routes whose OpenAPI response schema is loose to the core domain type.
 */
export async function unwrap<T>(call: Promise<FetchResult>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const { message, name } = messageOf(error, response.status);
    throw new ApiError(response.status, message, name, error);
  }
  return data as T;
}

/** The message to show for any thrown value. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Something went wrong.';
