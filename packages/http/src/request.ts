/** A request as every adapter hands it to the handler: no framework types. */
export interface HttpRequest<Native = unknown> {
  /** Upper-case method (`GET`, `POST`, …). */
  method: string;
  /** Path relative to where the API is mounted, starting with `/`, without the query string. */
  path: string;
  /** Where the API is mounted (`''` at the root, `/flags` under a prefix): documents, cookies and the UI use it. */
  basePath: string;
  /** Query parameters: repeated keys become arrays. */
  query: Record<string, unknown>;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The client's address as the adapter trusts it (proxies resolved by the adapter). */
  remoteAddress: string | undefined;
  /** The raw body bytes, or null when the request has none. */
  body: AsyncIterable<Uint8Array> | null;
  /** A body a host framework already parsed (Express with `express.json()` mounted earlier). */
  parsedBody?: unknown;
  /** The adapter's own request object, for a host's `authenticate`. */
  native: Native;
}

/**
 * A response body: bytes, text, bytes in pieces written one after another (an answer that shares
 * part of its bytes with another, never joined into a copy), or a stream of chunks (server-sent events).
 */
export type HttpBody = string | Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array>;

/** Whether a body is bytes in pieces. */
export const isPieces = (body: HttpBody): body is readonly Uint8Array[] => Array.isArray(body);

/** What the handler answers; adapters write it out as is. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body?: HttpBody;
}

/** Query parameters of a URL search string the way Node's `querystring` reads them. */
export function parseQuery(search: string): Record<string, unknown> {
  const query: Record<string, string | string[]> = {};
  if (search.length <= 1) return query;
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = query[key];
    if (seen === undefined) query[key] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[key] = [seen, value];
  }
  return query;
}

/** Header values as `HttpRequest.headers` holds them. */
export function flattenHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
