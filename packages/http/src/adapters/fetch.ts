import type { Flagstaff } from '@flagstaff/core';
import { createHttpHandler, type FlagstaffHttpOptions } from '../handler.js';
import { type HttpBody, type HttpRequest, isPieces, parseQuery } from '../request.js';

export interface FetchHandlerOptions extends FlagstaffHttpOptions<Request> {
  /** Where the API is mounted in the URL space (default `''`), e.g. `/flags` for a catch-all route there. */
  basePath?: string;
  /** The client's address when the runtime knows it (Bun's `server.requestIP`, Deno's `info.remoteAddr`). */
  remoteAddress?: (request: Request) => string | undefined;
}

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function toStream(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Bytes over a plain ArrayBuffer, as `Response` takes them (no copy unless they sit on a shared one). */
const ownBytes = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);

const toBodyInit = (
  body: Buffer | Exclude<HttpBody, readonly Uint8Array[]> | undefined,
): string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null =>
  body === undefined
    ? null
    : typeof body === 'string'
      ? body
      : body instanceof Uint8Array
        ? ownBytes(body)
        : toStream(body as AsyncIterable<Uint8Array>);

/**
 * The API as a Fetch-API handler, `(request: Request) => Promise<Response>`: mount it in Hono,
 * Next.js route handlers, Bun or Deno. Requests outside `basePath` or matching no route get a 404.
 */
export function createFetchHandler(flagstaff: Flagstaff, options: FetchHandlerOptions = {}) {
  const handler = createHttpHandler(flagstaff, { ...options, unknownRoutes: 'not-found' });
  const basePath = (options.basePath ?? '').replace(/\/$/, '');
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
      return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const httpRequest: HttpRequest<Request> = {
      method: request.method,
      path: url.pathname.slice(basePath.length) || '/',
      basePath,
      query: parseQuery(url.search),
      headers,
      remoteAddress: options.remoteAddress?.(request),
      body: request.body ? chunksOf(request.body) : null,
      native: request,
    };
    const response = await handler.handle(httpRequest);
    if (response === null) return new Response('Not Found', { status: 404 });
    // A 204/304 must not carry a body, not even an empty one.
    if (response.status === 204 || response.status === 304)
      return new Response(null, { status: response.status, headers: response.headers });
    // Pieces become one buffer here: `Response` copies what it is given anyway.
    const body =
      response.body !== undefined && isPieces(response.body) ? Buffer.concat(response.body) : response.body;
    // Bodies whose size is known say so, as the Node adapter does: servers that pass a Response's
    // body through as a stream would otherwise send it chunked, and clients could not see its size.
    const length =
      typeof body === 'string'
        ? Buffer.byteLength(body)
        : body instanceof Uint8Array
          ? body.byteLength
          : undefined;
    const withLength =
      length === undefined ? response.headers : { ...response.headers, 'content-length': String(length) };
    return new Response(toBodyInit(body), { status: response.status, headers: withLength });
  };
}
