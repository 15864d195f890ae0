import { createServer, type IncomingMessage, type Server } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { nodeRequestHasBody } from '../adapters/node.js';

/**
 * The header that carries the connection's address to the Fetch handler (set here, never taken
 * from the client), as Bun's `server.requestIP` or Hono's `getConnInfo` would hand it over.
 */
export const TEST_REMOTE_ADDRESS = 'x-test-remote-address';

/**
 * A node:http server in front of a Fetch-API handler, the way Hono's node server or Next.js run one:
 * lets the HTTP suite run through the Fetch adapter.
 */
export function serveFetch(handler: (request: Request) => Promise<Response>): Server {
  return createServer((req, res) => {
    toRequest(req)
      .then(handler)
      .then(async (response) => {
        res.statusCode = response.status;
        if (!req.complete) res.setHeader('connection', 'close');
        response.headers.forEach((value, name) => {
          res.setHeader(name, value);
        });
        if (!response.body) {
          res.end();
          return;
        }
        // pipeline keeps back-pressure and cancels the body when the client goes away (streams).
        pipeline(Readable.fromWeb(response.body), res, () => undefined);
      })
      .catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
  });
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  headers.delete(TEST_REMOTE_ADDRESS);
  if (req.socket.remoteAddress) headers.set(TEST_REMOTE_ADDRESS, req.socket.remoteAddress);
  // Fetch requests cannot carry a body on GET or HEAD: node servers for Fetch handlers (Hono's)
  // leave it out, where passing it on made the Request constructor throw (a 500 here).
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && nodeRequestHasBody(req);
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : null,
    // Node's fetch needs `duplex` for a streamed request body.
    duplex: hasBody ? 'half' : undefined,
  });
}
