import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddonInput } from '../../domain/addon.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import { createOutboundPolicy } from './outbound-policy.js';

/** The receivers here listen on loopback, which the outbound policy refuses unless allow-listed. */
export const loopbackAllowed = createOutboundPolicy(['127.0.0.1']);

export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on an ephemeral local port; `statuses` are answered in turn, then 200. */
export async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    statuses,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const fetchHttp: HttpClient = {
  async post(url, init) {
    const res = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    return { status: res.status };
  },
};

/** A webhook addon's create input. */
export const webhook = (
  parameters: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): AddonInput =>
  // Tests send invalid inputs too: the operation's schema is what judges them.
  ({ provider: 'webhook', parameters, events: ['feature-created'], ...extra }) as AddonInput;
