import type { PayloadEncoding, PreparedPayload } from '@flagstaff/core';
import { type Reply, rawJson } from './route.js';

/** Below this size compression saves less than its header and CPU cost. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * From this size gzip goes before brotli: a large payload's gzip form is kept in blocks that a
 * change recompresses one at a time, while brotli recompresses all of it (~20 MB at 50,000
 * features, hundreds of milliseconds) after every change.
 */
const GZIP_FIRST_FROM_BYTES = 1024 * 1024;

/**
 * The best encoding an `Accept-Encoding` header allows among the ones answers are kept in: brotli,
 * then gzip, then none. `q=0` refuses an encoding; `*` stands for any not named.
 */
export function chooseEncoding(header: string | undefined, gzipFirst = false): PayloadEncoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  if (gzipFirst && accepts('gzip')) return 'gzip';
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** A prepared payload as a reply in the encoding the request accepts, compressed once per encoding. */
export async function preparedReply(
  payload: PreparedPayload,
  acceptEncoding: string | undefined,
  headers: Record<string, string>,
): Promise<Reply> {
  const size = payload.size;
  const chosen =
    size < COMPRESS_FROM_BYTES ? 'identity' : chooseEncoding(acceptEncoding, size >= GZIP_FIRST_FROM_BYTES);
  // Identity bytes go out as their pieces (a hydration shares its feature list with the client
  // payload), so no answer joins them into a copy.
  const { pieces } = payload;
  const bytes =
    chosen === 'identity' ? (pieces.length === 1 ? pieces[0]! : pieces) : await payload.encoded(chosen);
  return rawJson(bytes, 200, {
    ...headers,
    etag: payload.etag,
    vary: 'Accept-Encoding',
    ...(chosen === 'identity' ? {} : { 'content-encoding': chosen }),
  });
}
