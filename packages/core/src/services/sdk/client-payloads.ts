import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** How many prepared answers a revision keeps (scopes × queries × kinds); the oldest goes first. */
export const DEFAULT_PAYLOAD_CACHE_ENTRIES = 512;

/** The encodings an answer is kept in; `identity` is the plain bytes. */
export type PayloadEncoding = 'identity' | 'gzip' | 'br';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Brotli's default quality (11) takes about a second for a 1 MB payload; 5 compresses nearly as well
 * in a few milliseconds, and the result is kept until the configuration changes.
 */
const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};

/** An answer serialized once, compressed once per encoding on first demand. */
export interface PreparedPayload {
  readonly revision: number;
  readonly etag: string;
  /**
   * The answer's bytes as pieces written one after another: a hydration shares its feature list
   * with the client payload's buffer (~20 MB at 50,000 features) instead of holding a copy.
   */
  readonly pieces: readonly Uint8Array[];
  /** Bytes in all the pieces. */
  readonly size: number;
  /** The pieces as one buffer (joined on each call when there are several, not kept). */
  readonly bytes: Uint8Array;
  /** The feature list's bytes (between `[` and `]`) inside `pieces`, for answers that share them. */
  readonly list?: Uint8Array | undefined;
  /** The bytes in an encoding; concurrent first callers share one compression. */
  encoded(encoding: PayloadEncoding): Promise<Uint8Array> | Uint8Array;
}

/** A serialized piece of a payload with its UTF-8 length, measured once when it was serialized. */
export interface JsonFragment {
  readonly json: string;
  readonly bytes: number;
}

export const fragmentOf = (json: string): JsonFragment => ({ json, bytes: Buffer.byteLength(json) });

/**
 * `head`, the fragments joined by commas, then `tail`, as UTF-8 bytes written straight into one
 * buffer: no joined string of the whole payload (tens of MB at 50,000 features) is ever made.
 */
export function joinFragments(head: string, fragments: readonly JsonFragment[], tail: string): Buffer {
  let total = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, fragments.length - 1);
  for (const fragment of fragments) total += fragment.bytes;
  const out = Buffer.allocUnsafeSlow(total);
  let at = out.write(head, 0);
  for (let i = 0; i < fragments.length; i++) {
    const { json, bytes } = fragments[i]!;
    if (i > 0) out[at++] = 0x2c;
    // A fragment as long in bytes as in characters is ASCII: latin1 copies it without encoding.
    at += out.write(json, at, bytes === json.length ? 'latin1' : 'utf8');
  }
  at += out.write(tail, at);
  if (at !== total) throw new Error(`payload assembly wrote ${at} of ${total} bytes`);
  return out;
}

/** JSON bytes (in pieces) and, when they were assembled from kept fragments, a cheaper way to their gzip form. */
export interface AssembledJson {
  pieces: readonly Uint8Array[];
  /** The feature list inside the pieces (see `PreparedPayload.list`). */
  list?: Uint8Array;
  gzip?: () => Promise<Uint8Array>;
}

/** Wraps serialized JSON; compressed variants are made lazily, off the event loop (zlib's pool). */
export function preparePayload(
  revision: number,
  etag: string,
  json: string | AssembledJson,
): PreparedPayload {
  const pieces = typeof json === 'string' ? [Buffer.from(json, 'utf8')] : json.pieces;
  let size = 0;
  for (const piece of pieces) size += piece.byteLength;
  // Several pieces share bytes with another answer: joined only for a caller that needs one buffer
  // (an HTTP delta answer, a compression), and let go after, so the sharing holds.
  const whole = (): Uint8Array => (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size));
  const gzipOf = (typeof json !== 'string' && json.gzip) || (() => gzipAsync(whole()));
  const variants = new Map<PayloadEncoding, Promise<Uint8Array> | Uint8Array>();
  return {
    revision,
    etag,
    pieces,
    size,
    list: typeof json === 'string' ? undefined : json.list,
    get bytes() {
      return whole();
    },
    encoded(encoding) {
      if (encoding === 'identity') return whole();
      let variant = variants.get(encoding);
      if (variant === undefined) {
        const pending = encoding === 'br' ? brotliAsync(whole(), BROTLI_OPTIONS) : gzipOf();
        variant = pending.then((done) => {
          variants.set(encoding, done);
          return done;
        });
        // A failed compression is retried by the next request instead of failing every later one.
        variant.catch(() => variants.delete(encoding));
        variants.set(encoding, variant);
      }
      return variant;
    },
  };
}
