import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundPolicy } from '../services/integrations/outbound-policy.js';
import { createNodeHttpClient } from './node-http-client.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A loopback receiver answering `status` (with a Location header for 3xx); counts requests. */
async function receiver(status = 200) {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      if (status >= 300 && status < 400) res.setHeader('Location', 'http://169.254.169.254/latest');
      res.end('body');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

const init = { headers: { 'Content-Type': 'application/json' }, body: '{}', timeoutMs: 2_000 };

describe('the Node outbound HTTP client', () => {
  it('F6: refuses a loopback receiver, by literal and by a name resolving to it, without connecting', async () => {
    const { port, hits } = await receiver();
    const client = createNodeHttpClient(createOutboundPolicy());
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', 'localhost'])
        await expect(client.post(`http://${host}:${port}/hook`, init), host).rejects.toThrow(
          /blocked by the outbound policy: .* is a loopback address/,
        );
      expect(hits()).toBe(0);
      expect(await client.refusal?.(`http://localhost:${port}/`)).toMatch(/blocked by the outbound policy/);
      expect(await client.refusal?.('http://203.0.113.9/')).toBeNull();
    } finally {
      client.close?.();
    }
  });

  it('F6: posts where the allow-list lets it, checking each connection, and answers a 3xx without following it', async () => {
    const ok = await receiver(200);
    const redirect = await receiver(302);
    const client = createNodeHttpClient(createOutboundPolicy(['localhost']));
    try {
      expect(await client.post(`http://localhost:${ok.port}/hook`, init)).toEqual({ status: 200 });
      expect(await client.post(`http://localhost:${redirect.port}/hook`, init)).toEqual({ status: 302 });
      expect(redirect.hits()).toBe(1);
      // Allow-listed by name, not by address: the literal stays refused.
      await expect(client.post(`http://127.0.0.1:${ok.port}/hook`, init)).rejects.toThrow(/loopback/);
      expect(ok.hits()).toBe(1);
    } finally {
      client.close?.();
    }
  });

  it('F6: checks the addresses of every connection, so a name that rebinds to loopback after the check is refused', async () => {
    const { port, hits } = await receiver();
    let lookups = 0;
    // The first answer is public (what a save-time check sees), later ones loopback (a rebinding DNS).
    const rebinding = async () => [{ address: lookups++ === 0 ? '203.0.113.9' : '127.0.0.1', family: 4 }];
    const client = createNodeHttpClient(createOutboundPolicy(), rebinding);
    try {
      expect(await client.refusal?.(`http://rebind.example:${port}/hook`)).toBeNull();
      await expect(client.post(`http://rebind.example:${port}/hook`, init)).rejects.toThrow(
        'blocked by the outbound policy: 127.0.0.1 is a loopback address',
      );
      expect(lookups).toBe(2);
      expect(hits()).toBe(0);
    } finally {
      client.close?.();
    }
  });
});
