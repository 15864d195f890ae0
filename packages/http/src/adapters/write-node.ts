import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpResponse, isPieces } from '../request.js';

/** Characters up to which a string body is written as a string. */
const SHORT_STRING = 16 * 1024;

/**
 * Writes a response to a Node response (Express's included), streaming bodies with back-pressure.
 * A request body we stopped reading part-way (too large, refused) closes the connection: the rest of
 * it would otherwise be read as the next request on a kept-alive socket.
 */
export async function writeNodeResponse(
  res: ServerResponse,
  response: HttpResponse,
  req?: IncomingMessage,
): Promise<void> {
  res.statusCode = response.status;
  if (req?.readableDidRead && !req.readableEnded) res.setHeader('connection', 'close');
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  const { body } = response;
  if (body === undefined) {
    res.end();
    return;
  }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    // A short string goes out as is, written with the headers without a Buffer copy; a long one is
    // encoded once here rather than measured and then encoded again.
    const bytes = typeof body === 'string' && body.length > SHORT_STRING ? Buffer.from(body, 'utf8') : body;
    res.setHeader(
      'content-length',
      typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength,
    );
    res.end(bytes);
    return;
  }
  if (isPieces(body)) {
    // Pieces go out in one writev (corked until `end`), never joined into a copy.
    const pieces = body;
    let length = 0;
    for (const piece of pieces) length += piece.byteLength;
    res.setHeader('content-length', length);
    res.cork();
    for (const piece of pieces) res.write(piece);
    res.end();
    return;
  }
  res.flushHeaders();
  await pipeChunks(res, body as AsyncIterable<Uint8Array>);
}

/**
 * Writes chunks as they come, waiting for `drain` when the socket is full, and stops when the
 * client goes away (the iterator's `return` tells its source). One waiter at a time is armed: a
 * `Promise.race` against a long-lived "closed" promise would leave a reaction per chunk on it.
 */
async function pipeChunks(res: ServerResponse, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  let closed = false;
  let wake: (() => void) | null = null;
  res.once('close', () => {
    closed = true;
    wake?.();
    void iterator.return?.()?.catch(() => undefined);
  });
  try {
    while (!closed) {
      const next = await new Promise<IteratorResult<Uint8Array> | null>((resolve, reject) => {
        wake = () => resolve(null);
        iterator.next().then(resolve, reject);
      });
      wake = null;
      if (next === null || next.done || closed) break;
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once('drain', resolve);
        });
        wake = null;
      }
    }
  } catch {
    // Headers are gone: the only way left to tell the client the body is incomplete.
    res.destroy();
    return;
  }
  if (!res.writableEnded) res.end();
}
