// Which address the node adapter takes as the client's, seen through the per-address limit on unknown
// tokens over real loopback HTTP: three bogus tokens from one address are refused with 429 after two.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFlagstaff, createMemoryStore, type Flagstaff } from '@flagstaff/core';
import { afterEach, describe, expect, it } from 'vitest';
import { requestFrom } from '../testing/from-address.js';
import { createNodeHandler, type NodeHandlerOptions } from './node.js';

let flagstaff: Flagstaff;
let server: Server;

async function start(options: NodeHandlerOptions): Promise<string> {
  flagstaff = await createFlagstaff({ store: createMemoryStore() });
  const handler = createNodeHandler(flagstaff, { ...options, authFailures: { maxFailures: 2 } });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await flagstaff.close();
});

/** Statuses of three bogus-token requests from `from` claiming to forward for `client`. */
async function threeBogus(base: string, from: string, client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const answer = await requestFrom(base, 'GET', '/api/admin/projects', {
      from,
      headers: { authorization: `bogus-${i}`, 'x-forwarded-for': `${client}, ${from}` },
    });
    statuses.push(answer.status);
  }
  return statuses;
}

describe('node adapter: the client address behind proxies', () => {
  it('believes X-Forwarded-For from a proxy in trustProxy, so clients behind it keep their own limits', async () => {
    const base = await start({ trustLoopbackProxy: false, trustProxy: ['127.0.0.5/32'] });
    expect(await threeBogus(base, '127.0.0.5', '203.0.113.7')).toEqual([401, 401, 429]);
    // Another client behind the same proxy is not limited by the first one's failures.
    expect(await threeBogus(base, '127.0.0.5', '203.0.113.8')).toEqual([401, 401, 429]);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: the peer is the client', async () => {
    const base = await start({ trustLoopbackProxy: false, trustProxy: ['127.0.0.5'] });
    expect(await threeBogus(base, '127.0.0.6', '203.0.113.7')).toEqual([401, 401, 429]);
    // A forged header cannot buy a fresh allowance: the peer stays limited.
    expect((await threeBogus(base, '127.0.0.6', '203.0.113.9'))[0]).toBe(429);
  });

  it('a trustProxy entry that is not an address or range is refused when the handler is made', async () => {
    flagstaff = await createFlagstaff({ store: createMemoryStore() });
    expect(() => createNodeHandler(flagstaff, { trustProxy: ['10.0.0.0/8', 'proxy.internal'] })).toThrow(
      '"proxy.internal" is not an IP address or CIDR range.',
    );
    server = createServer();
    server.listen(0, '127.0.0.1');
  });
});
