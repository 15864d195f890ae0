import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpResponse } from '../request.js';

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
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.setHeader('content-length', bytes.byteLength);
    res.end(bytes);
    return;
  }
  res.flushHeaders();
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  const iterator = body[Symbol.asyncIterator]();
  closed.then(() => iterator.return?.());
  for (;;) {
    const next = await Promise.race([iterator.next(), closed.then(() => null)]);
    if (next === null || next.done) break;
    if (!res.write(next.value)) {
      await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    }
  }
  if (!res.writableEnded) res.end();
}
