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

/** The message to show for any thrown value. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Something went wrong.';
