import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';
import type { JsonFragment } from './client-payloads.js';

// A payload's feature list is cut into blocks of ~128 features; each block's bytes (and its gzip
// form) are made once and kept across revisions while its features are the same objects. A change
// to one feature of 50,000 writes one block of bytes (~60 kB) and compresses it: no revision ever
// allocates the whole list (~20 MB) as one buffer. One such buffer per revision is what grew the
// process: glibc's malloc, after freeing a large mapped buffer, serves later ones of that size from
// its heap, which then does not shrink.

const deflateRawAsync = promisify(deflateRaw);

/**
 * Ends each block's deflate data on a byte boundary without closing the stream, so independently
 * compressed blocks concatenate into one valid deflate stream (as pigz does).
 */
const BLOCK_OPTIONS = { finishFlush: constants.Z_SYNC_FLUSH };

// A gzip header with no name and no time (RFC 1952), and the final empty fixed-Huffman block.
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
const LAST_BLOCK = Uint8Array.of(3, 0);

/** About one block per this many features, cut where a feature's JSON says (content-defined). */
const FEATURES_PER_BLOCK = 128;
/** A block is also cut past this many bytes. */
const MAX_BLOCK_BYTES = 512 * 1024;
/**
 * Blocks compressed at once: each compression holds a deflate state (~300 kB) from its start, and
 * zlib's thread pool runs four at a time anyway. The first gzip of 50,000 features (~400 blocks)
 * started them all together, 100+ MB of native memory at once.
 */
const DEFLATES_AT_ONCE = 4;

/** FNV-1a over a fragment's start: whether a block starts at it depends on its content alone. */
export function startsBlock(json: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < Math.min(json.length, 64); i++) hash = Math.imul(hash ^ json.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % FEATURES_PER_BLOCK === 0;
}

/** Consecutive fragments of a list, joined by commas, with the list's comma after them unless last. */
interface Block {
  readonly fragments: readonly JsonFragment[];
  readonly comma: boolean;
  readonly bytes: Buffer;
  deflated?: Promise<Buffer>;
}

/**
 * Blocks made before, by their first fragment (a few, for lists that differ in what follows it, such
 * as a token's filtered list beside the whole one); a fragment kept across revisions keeps its block.
 */
const made = new WeakMap<JsonFragment, Block[]>();
const KEPT_PER_FRAGMENT = 4;

const sameFragments = (a: readonly JsonFragment[], b: readonly JsonFragment[]): boolean =>
  a.length === b.length && a.every((fragment, i) => fragment === b[i]);

function joined(fragments: readonly JsonFragment[], comma: boolean): Buffer {
  let total = fragments.length - (comma ? 0 : 1);
  for (const fragment of fragments) total += fragment.bytes;
  const out = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const fragment of fragments) {
    at += fragment.writeTo(out, at);
    if (at < total) out[at++] = 0x2c;
  }
  if (at !== total) throw new Error(`payload block wrote ${at} of ${total} bytes`);
  return out;
}

function blockOf(fragments: readonly JsonFragment[], comma: boolean): Block {
  const first = fragments[0]!;
  const kept = made.get(first) ?? [];
  const found = kept.find((b) => b.comma === comma && sameFragments(b.fragments, fragments));
  if (found) return found;
  const block: Block = { fragments, comma, bytes: joined(fragments, comma) };
  made.set(first, [block, ...kept].slice(0, KEPT_PER_FRAGMENT));
  return block;
}

/** The fragments cut into blocks, reusing the blocks made for the same fragments before. */
function blocksOf(fragments: readonly JsonFragment[]): Block[] {
  const out: Block[] = [];
  let start = 0;
  while (start < fragments.length) {
    let end = start + 1;
    let size = fragments[start]!.bytes;
    while (end < fragments.length && !fragments[end]!.startsBlock && size < MAX_BLOCK_BYTES) {
      size += fragments[end]!.bytes;
      end++;
    }
    out.push(blockOf(fragments.slice(start, end), end < fragments.length));
    start = end;
  }
  return out;
}

let deflating = 0;
const waiting: (() => void)[] = [];

/** `deflateRaw` with at most `DEFLATES_AT_ONCE` running. */
async function deflateLimited(bytes: Uint8Array): Promise<Buffer> {
  if (deflating >= DEFLATES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  deflating++;
  try {
    return await deflateRawAsync(bytes, BLOCK_OPTIONS);
  } finally {
    deflating--;
    waiting.shift()?.();
  }
}

function deflatedBlock(block: Block): Promise<Buffer> {
  if (!block.deflated) {
    const pending = deflateLimited(block.bytes);
    block.deflated = pending;
    // A failed compression is tried again by the next payload.
    pending.catch(() => {
      if (block.deflated === pending) block.deflated = undefined;
    });
  }
  return block.deflated;
}

/** JSON as pieces: `head`, the fragments joined by commas in kept blocks, `tail`; and its gzip form. */
export interface BlockJson {
  readonly pieces: readonly Uint8Array[];
  /** One gzip member of the same bytes, as pieces: the blocks' kept compressed forms between a new head and tail. */
  gzip(): Promise<readonly Uint8Array[]>;
}

export function blockJson(head: string, fragments: readonly JsonFragment[], tail: string): BlockJson {
  const blocks = blocksOf(fragments);
  const headBytes = Buffer.from(head);
  const tailBytes = Buffer.from(tail);
  const pieces = [headBytes, ...blocks.map((b) => b.bytes), tailBytes];
  return {
    pieces,
    async gzip() {
      const deflated = await Promise.all([
        deflateLimited(headBytes),
        ...blocks.map(deflatedBlock),
        deflateLimited(tailBytes),
      ]);
      let crc = 0;
      let size = 0;
      for (const piece of pieces) {
        crc = crc32(piece, crc);
        size += piece.byteLength;
      }
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      trailer.writeUInt32LE(size % 2 ** 32, 4);
      return [GZIP_HEADER, ...deflated, LAST_BLOCK, trailer];
    },
  };
}
