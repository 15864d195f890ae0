import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** How many prepared answers are kept (scopes × queries × kinds); the least recently used goes first. */
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
  readonly bytes: Uint8Array;
  /** The bytes in an encoding; concurrent first callers share one compression. */
  encoded(encoding: PayloadEncoding): Promise<Uint8Array> | Uint8Array;
}

/** Wraps serialized JSON; compressed variants are made lazily, off the event loop (zlib's pool). */
export function preparePayload(revision: number, etag: string, json: string): PreparedPayload {
  const bytes = Buffer.from(json, 'utf8');
  const variants = new Map<PayloadEncoding, Promise<Uint8Array> | Uint8Array>([['identity', bytes]]);
  return {
    revision,
    etag,
    bytes,
    encoded(encoding) {
      let variant = variants.get(encoding);
      if (variant === undefined) {
        const pending = encoding === 'br' ? brotliAsync(bytes, BROTLI_OPTIONS) : gzipAsync(bytes);
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

/**
 * A bounded map of prepared answers by key, least recently used evicted first: many distinct token
 * scopes or queries cannot grow memory without bound, and an entry of an old revision is replaced
 * by the next build under its key.
 */
export function createPayloadCache(maxEntries = DEFAULT_PAYLOAD_CACHE_ENTRIES) {
  const entries = new Map<string, PreparedPayload>();
  const building = new Map<string, Promise<PreparedPayload>>();

  function touch(key: string, payload: PreparedPayload): void {
    entries.delete(key);
    entries.set(key, payload);
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  }

  return {
    /** The entry under `key` if it was built at `revision`. */
    get(key: string, revision: number): PreparedPayload | undefined {
      const found = entries.get(key);
      if (found === undefined || found.revision !== revision) return undefined;
      touch(key, found);
      return found;
    },
    /** The entry under `key` at `revision`, built once however many callers ask at the same time. */
    async getOrBuild(
      key: string,
      revision: number,
      build: () => Promise<PreparedPayload> | PreparedPayload,
    ): Promise<PreparedPayload> {
      const found = this.get(key, revision);
      if (found) return found;
      const buildKey = `${key}\u0000${revision}`;
      let pending = building.get(buildKey);
      if (!pending) {
        pending = Promise.resolve()
          .then(build)
          .then((payload) => {
            const current = entries.get(key);
            if (!current || current.revision <= payload.revision) touch(key, payload);
            return payload;
          })
          .finally(() => building.delete(buildKey));
        building.set(buildKey, pending);
      }
      return pending;
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type PayloadCache = ReturnType<typeof createPayloadCache>;
