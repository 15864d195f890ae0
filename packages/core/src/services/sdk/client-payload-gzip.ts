import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';
import type { JsonFragment } from './client-payloads.js';

const deflateRawAsync = promisify(deflateRaw);

/**
 * Ends each block's deflate data on a byte boundary without closing the stream, so independently
 * compressed blocks concatenate into one valid deflate stream (as pigz does).
 */
const BLOCK_OPTIONS = { finishFlush: constants.Z_SYNC_FLUSH };

// A gzip header with no name and no time (RFC 1952), and the final empty fixed-Huffman block.
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
const LAST_BLOCK = Uint8Array.of(3, 0);

/** About one block per this many features, cut where a feature's name says (content-defined). */
const FEATURES_PER_BLOCK = 128;
/** A block is also cut past this many bytes. */
const MAX_BLOCK_BYTES = 512 * 1024;

interface Block {
  readonly fragments: readonly JsonFragment[];
  /** Whether its bytes end with the comma before the next block. */
  readonly comma: boolean;
  readonly deflated: Promise<Buffer>;
}

/** Blocks compressed before, by their first fragment; a fragment kept across revisions keeps its block. */
const blocks = new WeakMap<JsonFragment, Block>();

/** FNV-1a: whether a block starts at this fragment depends on its content alone, not its position. */
function startsBlock(json: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < Math.min(json.length, 64); i++) hash = Math.imul(hash ^ json.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % FEATURES_PER_BLOCK === 0;
}

const sameFragments = (a: readonly JsonFragment[], b: readonly JsonFragment[]): boolean =>
  a.length === b.length && a.every((fragment, i) => fragment === b[i]);

/**
 * The gzip form of `head` + `list` + `tail`, where `list` is `fragments` joined by commas (as
 * `joinFragments` writes them): the fragments are compressed in blocks kept between revisions, so a
 * change to one feature of 50,000 compresses one block of ~128 features (a few ms) instead of the
 * whole payload (hundreds). The head and tail are compressed each time; the result is one ordinary
 * gzip member any client reads.
 */
export async function gzipFromFragments(
  [head, list, tail]: readonly [Uint8Array, Uint8Array, Uint8Array],
  fragments: readonly JsonFragment[],
): Promise<Uint8Array> {
  const parts: Promise<Buffer>[] = [deflateRawAsync(head, BLOCK_OPTIONS)];
  let at = 0;
  let start = 0;
  while (start < fragments.length) {
    let end = start + 1;
    let size = fragments[start]!.bytes;
    while (end < fragments.length && !startsBlock(fragments[end]!.json) && size < MAX_BLOCK_BYTES) {
      size += fragments[end]!.bytes;
      end++;
    }
    const members = fragments.slice(start, end);
    const comma = end < fragments.length;
    // Fragments are followed by one comma each, but the last.
    const length = size + (end - start) - (comma ? 0 : 1);
    const first = members[0]!;
    let block = blocks.get(first);
    if (!block || block.comma !== comma || !sameFragments(block.fragments, members)) {
      block = {
        fragments: members,
        comma,
        deflated: deflateRawAsync(list.subarray(at, at + length), BLOCK_OPTIONS),
      };
      blocks.set(first, block);
      // A failed compression is not kept for the next payload.
      block.deflated.catch(() => blocks.delete(first));
    }
    parts.push(block.deflated);
    at += length;
    start = end;
  }
  if (at !== list.byteLength) throw new Error(`gzip blocks covered ${at} of ${list.byteLength} bytes`);
  parts.push(deflateRawAsync(tail, BLOCK_OPTIONS));
  const deflated = await Promise.all(parts);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, crc32(list, crc32(head))) >>> 0, 0);
  trailer.writeUInt32LE((head.byteLength + list.byteLength + tail.byteLength) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, ...deflated, LAST_BLOCK, trailer]);
}
