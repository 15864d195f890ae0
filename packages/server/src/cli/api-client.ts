/** A failed call to the server: one line with the method, path, HTTP status and the server's message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ApiClient {
  /** The server's base URL, without a trailing slash. */
  readonly url: string;
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  get<T = unknown>(path: string): Promise<T>;
}

/** The `{ name, message }` of an error body, or the start of the text when it is not one. */
function describeFailure(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      const name = 'name' in body && typeof body.name === 'string' ? `${body.name}: ` : '';
      return `${name}${body.message}`.replace(/\s+/g, ' ');
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.replace(/\s+/g, ' ').slice(0, 200) || '(empty body)';
}

/** Admin API calls with a token; every non-2xx answer becomes an ApiError. */
export function createApiClient(options: { url: string; token?: string; fetch?: FetchLike }): ApiClient {
  const url = options.url.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((u, init) => fetch(u, init));
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = options.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
    let res: Response;
    try {
      // A kept-alive connection the server has just closed fails at once: a GET is safe to send again.
      res = await doFetch(`${url}${path}`, init).catch((error: unknown) => {
        if (method !== 'GET') throw error;
        return doFetch(`${url}${path}`, init);
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      throw new ApiError(0, `${method} ${url}${path}: could not reach the server${cause}`);
    }
    const text = await res.text();
    if (!res.ok)
      throw new ApiError(res.status, `${method} ${path} failed: HTTP ${res.status} ${describeFailure(text)}`);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        res.status,
        `${method} ${path}: the answer is not JSON (is ${url} a Flagstaff server?)`,
      );
    }
  };
  return { url, request, get: (path) => request('GET', path) };
}
