import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type BlockJson, startsBlock } from './client-payload-blocks.js';

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

/** Bytes as one buffer or as pieces written one after another. */
export type PayloadBytes = Uint8Array | readonly Uint8Array[];

/** An answer serialized once, compressed once per encoding on first demand. */
export interface PreparedPayload {
  readonly revision: number;
  readonly etag: string;
  /**
   * The answer's bytes as pieces written one after another: a full list is kept in blocks of ~128
   * features each, shared between revisions and between the answers that hold the same features
   * (a hydration and the client payload), never one buffer of the whole list.
   */
  readonly pieces: readonly Uint8Array[];
  /** Bytes in all the pieces. */
  readonly size: number;
  /** The pieces as one buffer (joined on each call when there are several, not kept). */
  readonly bytes: Uint8Array;
  /** The bytes in an encoding; concurrent first callers share one compression. */
  encoded(encoding: PayloadEncoding): Promise<PayloadBytes> | PayloadBytes;
}

/**
 * A serialized piece of a payload (one feature) with its UTF-8 length, measured once. Its text is
 * let go once it is written into a block of a payload: from then on its bytes are read from the
 * newest block that holds them, so 50,000 features are not kept twice, as strings and as bytes.
 */
export class JsonFragment {
  private text: string | undefined;
  private home: Buffer | undefined;
  private offset = 0;
  /** Its length in UTF-8 bytes. */
  readonly bytes: number;
  /** Whether a block of the payload starts at it (`startsBlock`), decided once. */
  readonly startsBlock: boolean;

  constructor(json: string) {
    this.text = json;
    this.bytes = Buffer.byteLength(json);
    this.startsBlock = startsBlock(json);
  }

  /** The JSON text (decoded from its block once it lives in one). */
  get json(): string {
    return this.text ?? this.home!.toString('utf8', this.offset, this.offset + this.bytes);
  }

  /** Writes its bytes into `out` at `at`, which becomes where they are kept; returns the bytes written. */
  writeTo(out: Buffer, at: number): number {
    const { text, home } = this;
    if (text !== undefined)
      // As long in bytes as in characters is ASCII: latin1 copies it without encoding.
      out.write(text, at, this.bytes === text.length ? 'latin1' : 'utf8');
    else home!.copy(out, at, this.offset, this.offset + this.bytes);
    this.text = undefined;
    this.home = out;
    this.offset = at;
    return this.bytes;
  }
}

/** Wraps serialized JSON; compressed variants are made lazily, off the event loop (zlib's pool). */
export function preparePayload(revision: number, etag: string, json: string | BlockJson): PreparedPayload {
  const pieces = typeof json === 'string' ? [Buffer.from(json, 'utf8')] : json.pieces;
  let size = 0;
  for (const piece of pieces) size += piece.byteLength;
  // Several pieces share bytes with other answers and revisions: joined only for a caller that needs
  // one buffer (brotli, an in-process reader), and let go after.
  const whole = (): Uint8Array => (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size));
  const gzipOf = typeof json === 'string' ? () => gzipAsync(whole()) : () => json.gzip();
  const variants = new Map<PayloadEncoding, Promise<PayloadBytes> | PayloadBytes>();
  return {
    revision,
    etag,
    pieces,
    size,
    get bytes() {
      return whole();
    },
    encoded(encoding) {
      if (encoding === 'identity') return pieces.length === 1 ? pieces[0]! : pieces;
      let variant = variants.get(encoding);
      if (variant === undefined) {
        const pending: Promise<PayloadBytes> =
          encoding === 'br' ? brotliAsync(whole(), BROTLI_OPTIONS) : gzipOf();
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
