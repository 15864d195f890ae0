import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { HttpError } from './errors.js';
import type { HttpRequest } from './request.js';

/** The contract's default request body limit. */
export const DEFAULT_BODY_LIMIT = '100kb';

/**
 * The default limit of the routes that take an export document (import and its validation): an
 * export of thousands of features with strategies is megabytes, far past the limit of other routes.
 */
export const DEFAULT_IMPORT_BODY_LIMIT = '25mb';

/**
 * Deepest nesting of arrays and objects a JSON body may have. The deepest document the API takes
 * (a JSON patch inside a feature with strategies, constraints and variant payloads) is about ten
 * levels; code that walks a body recursively (JSON patch, zod) overflows the stack near 10,000.
 */
export const MAX_BODY_DEPTH = 64;

const tooDeep = () =>
  new HttpError(
    400,
    'ValidationError',
    `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep.`,
  );

/** Deepest nesting of the JSON text, scanned without recursion (strings skipped, escapes too). */
function textDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The same for a value a host framework parsed already, walked with an explicit stack. */
function valueDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `'100kb'`, `'1mb'` or a byte count → bytes. */
export function parseByteLimit(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`bodyLimit "${limit}" is not a size such as 100kb or 1mb`);
  return Math.floor(Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1));
}

const isJsonType = (type: string): boolean =>
  type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));

const tooLarge = (limit: number) =>
  new HttpError(413, 'ContentTooLarge', `The request body is larger than the limit of ${limit} bytes.`);

/** Decoders for the content encodings we accept; the size limit applies to the decoded bytes. */
const DECODERS = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function checkContentType(contentType: string | undefined): void {
  const [type = '', ...params] = (contentType ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (!isJsonType(type)) {
    throw new HttpError(
      415,
      'ContentTypeerror',
      `We do not accept the content type "${contentType ?? 'no content type'}" for this request body. Send it as "application/json".`,
    );
  }
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(
      415,
      'ContentTypeerror',
      `The charset "${charset}" is not supported; send "application/json" in UTF-8.`,
    );
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(parts, size);
}

async function decode(encoding: string, raw: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  if (encoding === '' || encoding === 'identity') return collect(raw, limit);
  const create = DECODERS[encoding as keyof typeof DECODERS];
  if (!create) {
    throw new HttpError(
      415,
      'ContentTypeerror',
      `The content encoding "${encoding}" is not supported; send the body as identity, gzip, deflate or br.`,
    );
  }
  const decoder = create();
  // A decoder that failed (data not in its encoding) or was stopped (past the limit) never drains
  // again: waiting for 'drain' alone hung requests whose body came in more than one chunk.
  const writable = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        decoder.off('drain', done);
        decoder.off('close', done);
        resolve();
      };
      decoder.once('drain', done);
      decoder.once('close', done);
    });
  const feeding = (async () => {
    try {
      for await (const chunk of raw) {
        if (decoder.destroyed) break;
        if (!decoder.write(chunk) && !decoder.destroyed) await writable();
      }
      if (!decoder.destroyed) decoder.end();
    } catch (error) {
      decoder.destroy(error as Error);
    }
  })();
  try {
    return await collect(decoder, limit);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'ValidationError', `The request body is not valid ${encoding} data.`);
  } finally {
    decoder.destroy();
    await feeding;
  }
}

/**
 * Reads a JSON body: only JSON content types (415 naming the type), UTF-8 only, gzip/deflate/br
 * decoded with the limit applied to the decoded size (413), malformed JSON or nesting deeper than
 * MAX_BODY_DEPTH a 400. A request without
 * a body reads as undefined: the service decides whether one was required.
 */
export async function readJsonBody(request: HttpRequest, limit: number): Promise<unknown> {
  if (request.parsedBody !== undefined) {
    if (valueDepthExceeds(request.parsedBody, MAX_BODY_DEPTH)) throw tooDeep();
    return request.parsedBody;
  }
  if (request.body === null) return undefined;
  checkContentType(request.headers['content-type']);
  const declared = Number(request.headers['content-length']);
  const encoding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' && Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const bytes = await decode(encoding, request.body, limit);
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8');
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') {
    throw new HttpError(
      400,
      'ValidationError',
      'The request body is not valid JSON: it must be an object or an array.',
    );
  }
  // Checked before parsing: the parser copes with deep nesting, what reads the value next may not.
  if (textDepthExceeds(text, MAX_BODY_DEPTH)) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      'ValidationError',
      `The request body is not valid JSON: ${(error as Error).message}.`,
    );
  }
}
