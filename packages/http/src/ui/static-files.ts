import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);

/** A file as served: its bytes and, for text, compressed variants made once. */
export interface StaticFile {
  type: string;
  identity: Uint8Array;
  gzip?: Uint8Array;
  br?: Uint8Array;
}

/** The content type of a file name, by extension. */
export const contentTypeOf = (name: string): string => TYPES[extname(name)] ?? 'application/octet-stream';

/** A file ready to serve, compressed once when it is text worth compressing. */
export function staticFile(name: string, bytes: Uint8Array): StaticFile {
  const file: StaticFile = { type: contentTypeOf(name), identity: bytes };
  if (COMPRESSIBLE.has(extname(name)) && bytes.byteLength > 1024) {
    file.gzip = gzipSync(bytes, { level: 9 });
    file.br = brotliCompressSync(bytes);
  }
  return file;
}

/**
 * Reads files below `root`, once each (the built UI never changes while the server runs). Paths that
 * leave the root or name no file are null.
 */
export function createStaticReader(root: string) {
  const cache = new Map<string, Promise<StaticFile | null>>();
  const load = async (relative: string): Promise<StaticFile | null> => {
    const full = normalize(join(root, relative));
    if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
    try {
      if (!(await stat(full)).isFile()) return null;
      return staticFile(full, await readFile(full));
    } catch {
      return null;
    }
  };
  return (relative: string): Promise<StaticFile | null> => {
    let found = cache.get(relative);
    if (!found) {
      found = load(relative);
      // Only files that exist are remembered: a scan of random paths cannot grow the cache.
      found.then((f) => f === null && cache.delete(relative));
      cache.set(relative, found);
    }
    return found;
  };
}

/** The variant an `Accept-Encoding` header allows, best first. */
export function pickEncoding(file: StaticFile, accept: string | undefined): 'br' | 'gzip' | null {
  if (!accept) return null;
  const offered = accept.toLowerCase();
  if (file.br && /\bbr\b/.test(offered)) return 'br';
  if (file.gzip && /\bgzip\b/.test(offered)) return 'gzip';
  return null;
}
