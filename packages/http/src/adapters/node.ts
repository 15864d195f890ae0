import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAddressRanges, type Flagstaff } from '@flagstaff/core';
import { createHttpHandler, type FlagstaffHttpOptions } from '../handler.js';
import { flattenHeaders, type HttpRequest, parseQuery } from '../request.js';
import { writeNodeResponse } from './write-node.js';

export interface NodeHandlerOptions extends FlagstaffHttpOptions<IncomingMessage> {
  /** Where the API is mounted (default `''`); requests outside it go to `next` or get a plain 404. */
  basePath?: string;
  /** Whether `X-Forwarded-For` is believed when the connection comes from loopback (default true). */
  trustLoopbackProxy?: boolean;
  /**
   * Addresses or CIDR ranges of reverse proxies on other machines whose `X-Forwarded-For` is believed
   * too: the client is the right-most address in it that is not such a proxy. Without it everyone
   * behind a remote proxy shares the proxy's address, and so its per-address limits.
   */
  trustProxy?: readonly string[];
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Whether a request carries a body, as Node frames it. */
export const nodeRequestHasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** The client's address: the peer, or, behind trusted proxies, the first untrusted hop from the right. */
function clientAddress(req: IncomingMessage, trusted: (address: string) => boolean): string | undefined {
  const direct = req.socket.remoteAddress;
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded !== 'string' || !direct || !trusted(direct)) return direct;
  const hops = forwarded
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted(hops[i]!) || i === 0) return hops[i];
  return direct;
}

/** Which peers are proxies whose `X-Forwarded-For` is believed. */
function trustedProxies(options: NodeHandlerOptions): (address: string) => boolean {
  const loopback = options.trustLoopbackProxy ?? true;
  const remote = options.trustProxy?.length ? createAddressRanges(options.trustProxy) : () => false;
  return (address) => (loopback && LOOPBACK.test(address)) || remote(address);
}

/**
 * The API as a `node:http` request listener: `http.createServer(createNodeHandler(flagstaff))`.
 * Pass `next` to fall through to other handlers for requests that are not the API's.
 */
export function createNodeHandler(flagstaff: Flagstaff, options: NodeHandlerOptions = {}) {
  const handler = createHttpHandler(flagstaff, options);
  const basePath = (options.basePath ?? '').replace(/\/$/, '');
  const trust = trustedProxies(options);
  return async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const fullPath = q === -1 ? url : url.slice(0, q);
    const inside = fullPath === basePath || fullPath.startsWith(`${basePath}/`) || basePath === '';
    if (!inside) {
      if (next) next();
      else
        writeNodeResponse(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' });
      return;
    }
    const request: HttpRequest<IncomingMessage> = {
      method: req.method ?? 'GET',
      path: fullPath.slice(basePath.length) || '/',
      basePath,
      query: parseQuery(q === -1 ? '' : url.slice(q)),
      headers: flattenHeaders(req.headers),
      remoteAddress: clientAddress(req, trust),
      body: nodeRequestHasBody(req) ? req : null,
      native: req,
    };
    const response = await handler.handle(request);
    if (response === null) {
      if (next) next();
      else
        await writeNodeResponse(res, {
          status: 404,
          headers: { 'content-type': 'text/plain' },
          body: 'Not Found',
        });
      return;
    }
    await writeNodeResponse(res, response, req);
  };
}
